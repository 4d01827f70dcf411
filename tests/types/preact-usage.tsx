/** @jsxImportSource preact */
// Preact authors (multiple-heads/preact): the elements in JSX with their attributes checked.
// Lines marked @ts-expect-error must be type errors.
import type {} from '../../web/jsx-preact.js';
import { useRef } from 'preact/hooks';

export function Lesson() {
  const layer = useRef<HTMLElementTagNameMap['mha-layer']>(null);
  layer.current?.addEventListener('change', (event) => console.log(event.detail.state.h));
  return (
    <main>
      <mha-layer ref={layer} heads={4} token="said" panels="controls attend mix" class="wide" />
      <mha-training panels="curves heads" state-key="train" />
      <mha-practice idea="limits" />
      {/* @ts-expect-error: panel names are lower case */}
      <mha-training panels="Curves" />
      {/* @ts-expect-error: heading levels are 1 to 6 */}
      <mha-blend heading-level={0} />
      {/* @ts-expect-error: an attribute no widget has */}
      <mha-blend sentence="A new sentence." />
    </main>
  );
}
