/**
 * A one-widget entry of the package, `import 'multiple-heads/blend'` (and likewise
 * `multiple-heads/layer`, `/head-splitting`, `/wo-mixing`, `/heads-questions`, `/training`,
 * `/practice`): it defines that one element and exports nothing. The element's types are the
 * package's (its state, attributes and events; `document.querySelector('mha-blend')` is
 * typed), from multiple-heads.d.ts, which this file brings in.
 *
 * ```html
 * <script type="module" src=".../widgets/blend.js"></script>
 * <mha-blend></mha-blend>
 * ```
 * See docs/EMBEDDING.md, "Load only the widgets you use".
 */
import './multiple-heads.js';

export {};
