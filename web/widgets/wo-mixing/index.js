// Placeholder until the widget is written: shows that this part of the lesson is missing.
class WoMixingPlaceholder extends HTMLElement {
  connectedCallback() {
    this.textContent = 'This widget is not built yet.';
  }
}
if (!customElements.get('mha-wo-mixing')) customElements.define('mha-wo-mixing', WoMixingPlaceholder);
