// Type-checks the one-widget entries as a course author imports them, by the package's name
// (package.json "exports" map each to web/widget-entry.d.ts): the import is accepted, the
// element is typed by it alone, and the entry exports nothing; the API entry
// (multiple-heads/api) has the package's functions.
import 'multiple-heads/blend';
import 'multiple-heads/practice';
import * as blendEntry from 'multiple-heads/blend';
import type { BlendState } from 'multiple-heads';
import { registerLocale, loadEngine } from 'multiple-heads/api';

export function onePage(): void {
  const blend = document.querySelector('mha-blend');
  if (blend) {
    const state: BlendState = blend.state;
    blend.addEventListener('change', (event) => {
      const budget: number[] | null = event.detail.state.budget;
      void budget;
    });
    // @ts-expect-error: the budget is an array of numbers or null
    blend.setState({ ...state, budget: 'half' });
  }
  // @ts-expect-error: an entry exports no class or function
  void blendEntry.BlendWidget;
  // The API entry: the package's functions, typed as the package's.
  registerLocale('fr', { common: { undo: 'Annuler' } });
  void loadEngine().then((engine) => engine.target);
  // @ts-expect-error: the tag comes first
  registerLocale({ common: {} }, 'fr');
}
