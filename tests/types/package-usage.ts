// Type-checks web/multiple-heads.d.ts (the package's types) as a course author would use
// them: the widget registry, typed elements, state and events.
import { WIDGETS, loadEngine, type BlendState, type WidgetChangeDetail } from '../../web/multiple-heads.js';

export async function author(): Promise<void> {
  const blend = document.querySelector('mha-blend');
  if (blend) {
    const state: BlendState = blend.state;
    blend.setState({ budget: null });
    blend.addEventListener('change', (event) => {
      const detail = (event as CustomEvent<WidgetChangeDetail<BlendState>>).detail;
      void detail.state.budget?.length;
    });
    // @ts-expect-error: the budget is an array of numbers or null
    blend.setState({ ...state, budget: 'half' });
    blend.reset();
  }
  const tag: string = WIDGETS['wo-mixing'].tag;
  // @ts-expect-error: no such widget
  void WIDGETS.sliders;
  const engine = await loadEngine();
  void tag;
  void engine.target;
}
