// The practice problems as data (lessons/multiple-heads/practice.json), checked once when
// loaded, plus the pure helpers every view uses: a problem's idea, its options in the
// learner's own order, and reasons with their {figures} filled in. No DOM, no core.
import practice from '../../../lessons/multiple-heads/practice.json' with { type: 'json' };
import { attributeWords } from '../registry.js';
import practiceDe from '../../../lessons/multiple-heads/practice.de.json' with { type: 'json' };

// The problems' text in other languages, keyed by problem id (every prose field of
// practice.json at the same place; tests/node/practice-de.test.mjs checks each file whole).
// A language without a file shows the English text, marked lang="en".
const TRANSLATIONS = { de: practiceDe };

export const KINDS = ['widget', 'number', 'predict', 'choose'];
const ID = /^[a-z][a-z0-9-]{0,39}$/;

function fail(message) {
  throw new Error(`practice data: ${message}`);
}

/** Checks the practice data: unique ids, known ideas and kinds, what each kind needs. */
export function checkPractice(data = practice) {
  const ideas = new Set(data.ideas.map((idea) => idea.id));
  const ids = new Set();
  for (const problem of data.problems) {
    if (!ID.test(problem.id) || ids.has(problem.id)) fail(`“${problem.id}” is not a new id`);
    ids.add(problem.id);
    if (!ideas.has(problem.idea)) fail(`${problem.id}: no idea “${problem.idea}”`);
    if (!KINDS.includes(problem.kind)) fail(`${problem.id}: no kind “${problem.kind}”`);
    if (typeof problem.prompt !== 'string' || !problem.prompt) fail(`${problem.id}: prompt missing`);
    if (problem.kind === 'choose' || problem.kind === 'predict') {
      const options = problem.options ?? [];
      if (options.length < 2) fail(`${problem.id}: at least two options`);
      const optionIds = new Set(options.map((o) => o.id));
      if (optionIds.size !== options.length) fail(`${problem.id}: option ids repeat`);
      if (options.some((o) => typeof o.text !== 'string' || typeof o.reason !== 'string')) fail(`${problem.id}: every option needs text and a reason`);
      if (problem.kind === 'choose' && options.filter((o) => o.correct === true).length !== 1) fail(`${problem.id}: exactly one right option`);
    }
    if (problem.kind === 'number' && !(problem.answer && problem.right && problem.wrong)) fail(`${problem.id}: answer, right and wrong needed`);
    if (problem.kind === 'widget' && !(problem.widget && problem.goal && problem.reasons)) fail(`${problem.id}: widget, goal and reasons needed`);
    if (problem.kind === 'predict' && !(problem.widget && problem.outcome && problem.see)) fail(`${problem.id}: widget, outcome and see needed`);
    if (problem.panel !== undefined && !(problem.widget && ID.test(problem.panel))) fail(`${problem.id}: a panel is a name of its widget's panels`);
  }
  for (const idea of ideas) {
    if (data.problems.filter((p) => p.idea === idea).length < 2) fail(`idea “${idea}” needs at least two problems`);
  }
  return data;
}

export const PRACTICE = checkPractice();
export const PROBLEMS = PRACTICE.problems;
export const PROBLEM_IDS = PROBLEMS.map((p) => p.id);
export const IDEAS = PRACTICE.ideas;

export function problemById(id) {
  return PROBLEMS.find((p) => p.id === id) ?? null;
}

export function problemsFor(idea) {
  return PROBLEMS.filter((p) => p.idea === idea);
}

/**
 * The `kinds` attribute of `<mha-practice>`: which kinds of an idea's problems a block shows
 * (a lesson puts an idea's predict problems before the widget that would give their answer
 * away, and the rest after it). Null or empty: every kind. Returns { kinds } or
 * { unknown: [the words that are not kinds] }.
 */
export function parseKinds(attribute) {
  const words = attributeWords(attribute);
  if (words.length === 0) return { kinds: KINDS };
  const unknown = words.filter((word) => !KINDS.includes(word));
  return unknown.length ? { unknown } : { kinds: KINDS.filter((kind) => words.includes(kind)) };
}

/**
 * One block's problems: the idea's problems of these kinds, each with its number within the
 * idea (so problem 2 is problem 2 in whichever block of the idea shows it).
 */
export function blockProblems(idea, kinds = KINDS) {
  return problemsFor(idea).map((problem, k) => ({ problem, number: k + 1 })).filter(({ problem }) => kinds.includes(problem.kind));
}

/** A block that shows only predict problems asks before the widget: "Predict first". */
export const predictsOnly = (kinds) => kinds.length === 1 && kinds[0] === 'predict';

/** The language the practice text is shown in for a UI locale: its own if translated, else English. */
export function practiceLanguage(locale = 'en') {
  const base = String(locale).toLowerCase().split('-')[0];
  return Object.hasOwn(TRANSLATIONS, base) ? base : 'en';
}

const localizedCache = new Map();

/**
 * A problem with its text in the language practiceLanguage(locale) names: prompt, reasons,
 * right, wrong, each misstep's reason, each option's text and reason. Everything else (ids,
 * answers, the goal and its parameters) is the English problem's own.
 */
export function localizedProblem(problem, locale = 'en') {
  const language = practiceLanguage(locale);
  if (language === 'en') return problem;
  const key = `${language}|${problem.id}`;
  if (!localizedCache.has(key)) {
    const text = TRANSLATIONS[language].problems[problem.id] ?? {};
    const local = { ...problem, ...(text.prompt ? { prompt: text.prompt } : {}) };
    for (const field of ['right', 'wrong']) if (text[field]) local[field] = text[field];
    if (problem.reasons) local.reasons = { ...problem.reasons, ...(text.reasons ?? {}) };
    if (problem.missteps) local.missteps = problem.missteps.map((m) => ({ ...m, reason: text.missteps?.[m.id] ?? m.reason }));
    if (problem.options) local.options = problem.options.map((o) => ({ ...o, ...(text.options?.[o.id] ?? {}) }));
    localizedCache.set(key, Object.freeze(local));
  }
  return localizedCache.get(key);
}

/** An idea's title in the practice language of `locale`. */
export function ideaTitle(idea, locale = 'en') {
  const language = practiceLanguage(locale);
  const english = IDEAS.find((i) => i.id === idea)?.title ?? idea;
  return language === 'en' ? english : (TRANSLATIONS[language].ideas?.[idea] ?? english);
}

/** {name} placeholders replaced by the checker's figures (unknown names stay as written). */
export function fillReason(template, figures = {}) {
  return String(template).replace(/\{([a-zA-Z]+)\}/g, (whole, name) => (Object.hasOwn(figures, name) ? figures[name] : whole));
}

// A small seeded generator (mulberry32): the same learner sees the same order every visit,
// different learners see different orders. (Tests replay their random sequences with it.)
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text) {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.codePointAt(0), 16777619) >>> 0;
  return h;
}

/** A problem's options in this learner's order (Fisher–Yates with the learner's seed). */
export function optionOrder(problem, seed) {
  const order = problem.options.map((_, i) => i);
  const random = generator((seed ^ hash(problem.id)) >>> 0);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.map((i) => problem.options[i]);
}

/** The text a reader sees once notation is typeset ("d_{model}" reads "dmodel"). */
export function shownText(text) {
  return text.replace(/[_^]\{([^}]*)\}/g, '$1').replace(/[_^]/g, '');
}
