// Type-checks web/multiple-heads.d.ts as a course author uses each element: its state, its
// events (`change` with a typed `event.detail.state`, `ready`) and its attributes. Lines
// marked @ts-expect-error must really be type errors (tsc fails on an unused directive), so
// this file is both "must compile" and "must fail" at once, line by line.
import {
  WIDGET_TAGS, type HeadSplittingState, type LayerAttributes, type MultipleHeadsAttributesByTag,
  type PanelList, type BlendPanel, type SentenceToken, type TrainingState, type WidgetChangeEvent, type WoMixingState,
} from '../../web/multiple-heads.js';

export function listen(): void {
  const blend = document.querySelector('mha-blend')!;
  blend.addEventListener('change', (event) => {
    const budget: number[] | null = event.detail.state.budget;
    void budget;
    // @ts-expect-error: the blend's state has no heads
    void event.detail.state.heads;
  });
  blend.addEventListener('ready', (event) => {
    const detail: null = event.detail;
    void detail;
  });
  // Other events keep their own types.
  blend.addEventListener('click', (event) => { const x: number = event.clientX; void x; });
  blend.addEventListener('keydown', (event) => { const key: string = event.key; void key; });

  const split = document.querySelector('mha-head-splitting')!;
  split.addEventListener('change', (event) => {
    const state: HeadSplittingState = event.detail.state;
    const ops: number = state.dModel * state.seqLen * state.seqLen;
    void ops;
  });
  split.setState({ dModel: 512, heads: 8, seqLen: 64, spectrumHeads: 4, spectrumHead: 0 });
  // @ts-expect-error: 100 is not one of the lesson's widths
  split.setState({ dModel: 100, heads: 4, seqLen: 64, spectrumHeads: 4, spectrumHead: 0 });

  const mixing = document.querySelector('mha-wo-mixing')!;
  const onChange = (event: WidgetChangeEvent<WoMixingState>) => void event.detail.state.wo.length;
  mixing.addEventListener('change', onChange);
  mixing.removeEventListener('change', onChange);
  // @ts-expect-error: a listener for another widget's state does not fit
  mixing.addEventListener('change', (event: WidgetChangeEvent<TrainingState>) => void event.detail.state.seed);

  const training = document.querySelector('mha-training')!;
  training.setState({ task: 'previous-token', heads: 2, seed: 7, off: [1] });
  // @ts-expect-error: tasks are named
  training.setState({ task: 'copy', heads: 2, seed: 7, off: [] });

  const practice = document.querySelector('mha-practice')!;
  practice.setAttribute('idea', 'wo');
  practice.addEventListener('ready', () => undefined);
  practice.reportAuth = 'Basic dGVzdDp0ZXN0';
  practice.reportActor = { name: 'Ada', mbox: 'mailto:ada@example.org' };
  // @ts-expect-error: an xAPI agent has exactly one identifier, and a mailbox is mailto:
  practice.reportActor = { name: 'Ada', mbox: 'ada@example.org' };
  blend.state = { budget: null };
  blend.state = '{"budget":null}';
  // @ts-expect-error: the blend's state is a budget
  blend.state = { heads: 2 };
  // @ts-expect-error: practice keeps no state
  void practice.state;

  // A plain element's change stays a plain Event.
  document.querySelector('input')!.addEventListener('change', (event) => {
    // @ts-expect-error: an input's change event has no detail
    void event.detail;
  });
}

export function attributes(): void {
  const layer: LayerAttributes = { heads: '2', token: 'said', head: 'subject', panels: 'controls attend', 'heading-level': 2 };
  // @ts-expect-error: the layer has 4, 2 or 1 heads
  const wrongHeads: LayerAttributes = { heads: '3' };
  // Another world's tokens are its own: any text (the lesson's are offered by name).
  const otherWorld: LayerAttributes = { world: 'worlds/german.json', token: 'Koch' };
  // @ts-expect-error: world is text, a URL or the world's JSON
  const wrongWorld: LayerAttributes = { world: { formatVersion: 1 } };
  const panels: PanelList<BlendPanel> = 'plane values';
  // @ts-expect-error: panel names are lower case
  const wrongPanel: PanelList<BlendPanel> = 'Plane';
  // @ts-expect-error: a panel of another widget
  const otherPanel: MultipleHeadsAttributesByTag['mha-blend'] = { panels: 'spectrum' };
  // @ts-expect-error: heading levels are 1 to 6
  const wrongLevel: MultipleHeadsAttributesByTag['mha-blend'] = { 'heading-level': 7 };
  // @ts-expect-error: url-state takes only "off"
  const wrongUrl: MultipleHeadsAttributesByTag['mha-training'] = { 'url-state': 'maybe' };
  const full: SentenceToken = '.';
  const tags: readonly string[] = WIDGET_TAGS;
  void [layer, wrongHeads, otherWorld, wrongWorld, panels, wrongPanel, otherPanel, wrongLevel, wrongUrl, full, tags];
}
