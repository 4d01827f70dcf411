// Placeholder until the widget is written: shows that this part of the lesson is missing.
class HeadSplittingPlaceholder extends HTMLElement {
  connectedCallback() {
    this.textContent = 'This widget is not built yet.';
  }
}
if (!customElements.get('mha-head-splitting')) customElements.define('mha-head-splitting', HeadSplittingPlaceholder);
