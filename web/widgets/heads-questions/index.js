// Placeholder until the widget is written: shows that this part of the lesson is missing.
class HeadsQuestionsPlaceholder extends HTMLElement {
  connectedCallback() {
    this.textContent = 'This widget is not built yet.';
  }
}
if (!customElements.get('mha-heads-questions')) customElements.define('mha-heads-questions', HeadsQuestionsPlaceholder);
