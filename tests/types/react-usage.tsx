// React authors (multiple-heads/react): the elements in JSX with their attributes checked.
// Lines marked @ts-expect-error must be type errors.
import type {} from '../../web/jsx-react.js';
import { useEffect, useRef } from 'react';

export function Lesson({ saved }: { saved: { budget: number[] | null } }) {
  const blend = useRef<HTMLElementTagNameMap['mha-blend']>(null);
  useEffect(() => {
    const element = blend.current;
    const onChange = (event: HTMLElementTagNameMap['mha-blend'] extends { state: infer S } ? CustomEvent<{ state: S }> : never) =>
      console.log(event.detail.state.budget);
    element?.addEventListener('change', onChange);
    return () => element?.removeEventListener('change', onChange);
  }, []);
  return (
    <main>
      <mha-blend ref={blend} state={JSON.stringify(saved)} panels="one-head two-heads" state-key="blend-1" className="wide" />
      <mha-layer heads="2" token="the" head={1} heading-level="2" readonly />
      <mha-blend readonly={false} />
      <mha-heads-questions query="said" url-state="off" lang="de" />
      <mha-head-splitting config={JSON.stringify({ start: { dModel: 96, heads: 12, seqLen: 32 } })} />
      <mha-practice idea="one-average" />
      <mha-practice report="xapi" report-endpoint="https://lrs.example/xapi/" report-activity="https://course.example/attention" />
      {/* @ts-expect-error: scorm or xapi */}
      <mha-practice report="cmi5" />
      {/* @ts-expect-error: panel names are lower case */}
      <mha-blend panels="Plane" />
      {/* @ts-expect-error: 3 heads is not a layer */}
      <mha-layer heads="3" />
      <mha-wo-mixing world="worlds/german.json" token="Koch" />
      {/* @ts-expect-error: world is text, a URL or the world's JSON */}
      <mha-blend world={42} />
      {/* @ts-expect-error: no such idea */}
      <mha-practice idea="attention" />
      {/* @ts-expect-error: a ref of another element */}
      <mha-layer ref={blend} />
    </main>
  );
}
