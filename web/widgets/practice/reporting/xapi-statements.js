// xAPI 1.0.3 statements for the practice, built from the learner's copy: no DOM, no network.
//
//   answered   one per checked answer: the problem (an activity), the learner's response,
//              result.success (right or not), in the context of its idea and the lesson
//   progressed / completed / scored   one per idea and one for the whole practice when its
//              numbers change: result.score (scaled = solved / total, raw = solved of max)
//              and result.completion (every problem answered); "completed" when it becomes
//              complete, "scored" for a new score after that, "progressed" before
//
// Activity ids are IRIs under the author's base (report-activity, or the page's address):
// <base> (the practice), <base>/ideas/<idea>, <base>/problems/<problem>.
// Every statement gets its own UUID when it is made, so a retry sends the same statement and
// the record store keeps it once (xAPI: a statement id it already has is not stored again).
import { newAttempts, responseText, sameTally, summarize, countsOf } from './scores.js';

const ADL = 'http://adlnet.gov/expapi/verbs/';
export const VERBS = Object.fromEntries(['answered', 'progressed', 'completed', 'scored']
  .map((name) => [name, { id: `${ADL}${name}`, display: { 'en-US': name } }]));
const ACTIVITY_TYPES = {
  lesson: 'http://adlnet.gov/expapi/activities/assessment',
  idea: 'http://adlnet.gov/expapi/activities/objective',
  problem: 'http://adlnet.gov/expapi/activities/cmi.interaction',
};
const INTERACTION = { choose: 'choice', predict: 'choice', number: 'fill-in', widget: 'other' };

export const activityIds = (base) => ({
  lesson: base,
  idea: (idea) => `${base}/ideas/${encodeURIComponent(idea)}`,
  problem: (id) => `${base}/problems/${encodeURIComponent(id)}`,
});

const activity = (id, type, name, lang, extra = {}) => ({
  objectType: 'Activity', id, definition: { name: { [lang]: name }, type: ACTIVITY_TYPES[type], ...extra },
});

/** A random UUID (version 4), as xAPI wants for statement ids and registrations. */
export function newUuid() {
  return globalThis.crypto.randomUUID();
}

/**
 * The statements for what changed since `state` ({ seen: { [problem id]: count },
 * tallies: { [idea or 'overall']: tally } }), and the new state to keep with them.
 * `ctx`: { actor, base, lang, titleOf(idea), lessonTitle, registration?, now() }.
 */
export function statementsSince(state, copy, problems, ctx) {
  const ids = activityIds(ctx.base);
  const context = (parents) => ({
    platform: 'Multiple Heads',
    language: ctx.lang,
    ...(ctx.registration ? { registration: ctx.registration } : {}),
    contextActivities: { parent: parents.map((id) => ({ objectType: 'Activity', id })), grouping: [{ objectType: 'Activity', id: ids.lesson }] },
  });
  const statements = [];
  for (const { problem, attempt } of newAttempts(copy, problems, state.seen ?? {})) {
    if (!attempt) continue;
    statements.push({
      id: newUuid(),
      actor: ctx.actor,
      verb: VERBS.answered,
      object: activity(ids.problem(problem.id), 'problem', `${ctx.titleOf(problem.idea)}: ${problem.id}`, ctx.lang, { interactionType: INTERACTION[problem.kind] }),
      result: { success: attempt.correct, response: responseText(attempt.answer) },
      timestamp: new Date(attempt.at).toISOString(),
      context: { ...context([ids.idea(problem.idea)]) },
    });
  }
  const summary = summarize(copy, problems);
  const tallies = { ...(state.tallies ?? {}) };
  const groups = [...summary.ideas.map((t) => ({ tally: t, object: activity(ids.idea(t.id), 'idea', ctx.titleOf(t.id), ctx.lang), parents: [ids.lesson] })),
    { tally: summary.overall, object: activity(ids.lesson, 'lesson', ctx.lessonTitle, ctx.lang), parents: [] }];
  for (const { tally, object, parents } of groups) {
    const before = tallies[tally.id];
    if (sameTally(before, tally) || (!before && tally.answered === 0)) continue;
    tallies[tally.id] = tally;
    const verb = !tally.complete ? VERBS.progressed : before?.complete ? VERBS.scored : VERBS.completed;
    statements.push({
      id: newUuid(),
      actor: ctx.actor,
      verb,
      object,
      result: { score: { scaled: tally.scaled, raw: tally.solved, min: 0, max: tally.total }, completion: tally.complete },
      timestamp: new Date(ctx.now()).toISOString(),
      context: context(parents),
    });
  }
  return { statements, state: { seen: countsOf(copy, problems), tallies } };
}

/**
 * The xAPI actor from an author's value (report-actor: JSON text, or an object): an Agent with
 * exactly one identifier (mbox "mailto:…", mbox_sha1sum, openid, or account { homePage, name }).
 * Throws an Error whose message says what is wrong.
 */
export function parseActor(value) {
  let actor = value;
  if (typeof value === 'string') {
    try {
      actor = JSON.parse(value);
    } catch {
      throw new Error('it is not JSON');
    }
  }
  if (actor === null || typeof actor !== 'object' || Array.isArray(actor)) throw new Error('it is not an object');
  const keys = ['mbox', 'mbox_sha1sum', 'openid', 'account'].filter((k) => actor[k] !== undefined);
  if (keys.length !== 1) throw new Error('it needs exactly one of mbox, mbox_sha1sum, openid, account');
  if (keys[0] === 'mbox' && !/^mailto:[^@\s]+@[^@\s]+$/.test(actor.mbox)) throw new Error('mbox must be “mailto:” and an address');
  if (keys[0] === 'account' && !(typeof actor.account?.homePage === 'string' && /^https?:\/\//.test(actor.account.homePage) && typeof actor.account?.name === 'string' && actor.account.name)) {
    throw new Error('account needs homePage (an http(s) address) and name');
  }
  const clean = { objectType: 'Agent', [keys[0]]: actor[keys[0]] };
  if (typeof actor.name === 'string') clean.name = actor.name;
  return clean;
}
