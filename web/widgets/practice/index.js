// <mha-practice>: the lesson's practice questions, marked "with a reason rather than a
// tick": every choice, right or wrong, gets an explanation. The questions are lesson data
// (lessons/multiple-heads/practice.json). No numbers are computed here, so no core is needed.
import practice from '../../../lessons/multiple-heads/practice.json' with { type: 'json' };
import { element } from '../shared/widget-base.js';
import { notation } from '../../ui/notation.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import baseStyles from '../shared/widget-base.css?inline';
import styles from './practice.css?inline';

function sheet(cssText) {
  const s = new CSSStyleSheet();
  s.replaceSync(cssText);
  return s;
}

export class PracticeQuestions extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet(baseStyles), sheet(styles)];
    const body = element('div', { className: 'widget' });
    const questions = practice.questions.map((question, q) => this.#question(question, q));
    // On a phone, one question at a time, chosen by number (web/ui/narrow-switch.js); wider,
    // all of them. Every choice and its reason stay in each question.
    const narrow = new NarrowSwitch({
      label: 'Question shown', prefix: 'Question', options: questions.map((fieldset, q) => ({
        value: String(q + 1), content: String(q + 1), label: `Question ${q + 1} of ${questions.length}`, panels: [fieldset],
      })),
    });
    // After a question, a phone's "Next question" (not shown wider, where all are in view).
    questions.slice(0, -1).forEach((fieldset, q) => {
      const next = element('button', { type: 'button', className: 'secondary narrow-next', textContent: 'Next question' });
      next.addEventListener('click', () => {
        narrow.show(String(q + 2));
        questions[q + 1].querySelector('input').focus();
        questions[q + 1].scrollIntoView?.({ block: 'nearest' });
      });
      fieldset.querySelector('.check-row').append(next);
    });
    body.append(narrow.element, ...questions);
    root.append(body);
    this.setAttribute('ready', '');
  }

  #question(question, q) {
    const name = `practice-${question.id}`;
    const feedback = element('p', { className: 'feedback', role: 'status' });
    const options = question.choices.map((choice, c) => {
      const input = element('input', { type: 'radio', name, value: String(c) });
      return element('label', { className: 'choice' }, [input, element('span', {}, notation(choice.text))]);
    });
    const check = element('button', { type: 'button', textContent: 'Check' });
    check.addEventListener('click', () => {
      const picked = options.findIndex((label) => label.querySelector('input').checked);
      if (picked < 0) {
        feedback.className = 'feedback';
        feedback.textContent = 'Pick an answer first.';
        return;
      }
      const choice = question.choices[picked];
      // The verdict is the widget's; the reason (lesson data) explains it without repeating it.
      feedback.className = `feedback ${choice.correct ? 'right' : 'wrong'}`;
      feedback.replaceChildren(element('strong', { textContent: choice.correct ? 'Right. ' : 'Not quite. ' }), ...notation(choice.reason));
    });
    return element('fieldset', { className: 'question' }, [
      element('legend', {}, [`${q + 1}. `, ...notation(question.prompt)]),
      ...options,
      element('div', { className: 'check-row' }, [check]),
      feedback,
    ]);
  }
}

if (!customElements.get('mha-practice')) customElements.define('mha-practice', PracticeQuestions);
