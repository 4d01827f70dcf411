// Type-checks web/multiple-heads.d.ts (the package's types) as a course author would use
// them: the widget registry, typed elements, state and events.
import {
  WIDGETS, loadEngine, type BlendState, type HeadsQuestionsState, type WidgetChangeDetail,
} from '../../web/multiple-heads.js';

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
  const layer = document.querySelector('mha-layer');
  if (layer) {
    layer.setState({ h: 2, token: 6, head: 0 });
    // @ts-expect-error: h is 1, 2 or 4
    layer.setState({ h: 3, token: 6, head: 0 });
    const shown: boolean = layer.showPart('attend');
    void shown;
  }
  const questions = document.querySelector('mha-heads-questions');
  if (questions) {
    const state: HeadsQuestionsState = questions.state;
    questions.setState({ ...state, tied: true, head: 2 });
    // @ts-expect-error: wq is one array of numbers per head
    questions.setState({ ...state, wq: [1, 2, 3] });
  }
  const tag: string = WIDGETS['wo-mixing'].tag;
  // @ts-expect-error: no such widget
  void WIDGETS.sliders;
  const engine = await loadEngine();
  void tag;
  void engine.target;
}
