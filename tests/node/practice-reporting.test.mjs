// Scores back to the course platform (web/widgets/practice/reporting/): the tallies from the
// learner's copy, the xAPI statements (valid by tests/node/xapi-validate.mjs, one per new
// attempt, idea and practice statements only when their numbers change), the outbox's queue
// (kept in storage, retried with backoff, nothing lost or sent twice), the SCORM values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROBLEMS } from '../../web/widgets/practice/practice-data.js';
import { summarize } from '../../web/widgets/practice/reporting/scores.js';
import { VERBS, parseActor, statementsSince } from '../../web/widgets/practice/reporting/xapi-statements.js';
import { Outbox } from '../../web/widgets/practice/reporting/outbox.js';
import { statementsUrl } from '../../web/widgets/practice/reporting/xapi.js';
import { scormValues, sessionTime } from '../../web/widgets/practice/reporting/scorm.js';
import { fakeStorage, newCopy } from './malformed-copies.mjs';
import { statementProblems } from './xapi-validate.mjs';

const problems = PROBLEMS.filter((p) => p.idea === 'wo' || p.idea === 'limits');
const ctx = {
  actor: { objectType: 'Agent', mbox: 'mailto:learner@example.org' }, base: 'https://course.example/attention', lang: 'en',
  titleOf: (idea) => idea, lessonTitle: 'practice', now: () => Date.UTC(2026, 0, 2), registration: '0b7b5fa2-3f0e-4d3c-9c55-0d1c2e3f4a5b',
};

test('tallies per idea and overall: answered, solved, scaled, complete', () => {
  const copy = newCopy();
  copy.recordAttempt('wo-slices', { option: 'anywhere' }, false);
  copy.recordAttempt('wo-slices', { option: 'slice' }, true);
  copy.recordAttempt('prune', { option: 'useless' }, false);
  const { overall, ideas } = summarize(copy, problems);
  assert.deepEqual(ideas.map((i) => i.id), ['wo', 'limits']);
  assert.equal(overall.total, problems.length);
  assert.equal(overall.answered, 2);
  assert.equal(overall.solved, 1);
  assert.equal(overall.scaled, 1 / problems.length);
  assert.equal(overall.complete, false);
  const wo = ideas[0];
  assert.deepEqual([wo.answered, wo.solved, wo.total], [1, 1, problems.filter((p) => p.idea === 'wo').length]);
});

test('statements: one "answered" per new attempt and a score statement per changed idea and overall; all valid xAPI 1.0.3', () => {
  const copy = newCopy();
  copy.recordAttempt('wo-slices', { option: 'slice' }, true, Date.UTC(2026, 0, 1, 10));
  const first = statementsSince({}, copy, problems, ctx);
  assert.deepEqual(first.statements.map((s) => s.verb.id), [VERBS.answered.id, VERBS.progressed.id, VERBS.progressed.id]);
  const [answered, idea, overall] = first.statements;
  assert.equal(answered.object.id, 'https://course.example/attention/problems/wo-slices');
  assert.deepEqual(answered.result, { success: true, response: 'slice' });
  assert.equal(answered.timestamp, '2026-01-01T10:00:00.000Z');
  assert.equal(answered.context.contextActivities.parent[0].id, 'https://course.example/attention/ideas/wo');
  assert.equal(idea.object.id, 'https://course.example/attention/ideas/wo');
  assert.deepEqual(idea.result.score, { scaled: 1 / 3, raw: 1, min: 0, max: 3 });
  assert.equal(overall.object.id, 'https://course.example/attention');
  for (const s of first.statements) assert.deepEqual(statementProblems(s), [], JSON.stringify(s));
  assert.equal(new Set(first.statements.map((s) => s.id)).size, 3, 'each statement its own id');

  // Nothing new: nothing sent. A wrong attempt that changes no score: only "answered".
  assert.deepEqual(statementsSince(first.state, copy, problems, ctx).statements, []);
  copy.recordAttempt('wo-slices', { option: 'nowhere' }, false);
  const second = statementsSince(first.state, copy, problems, ctx);
  assert.deepEqual(second.statements.map((s) => s.verb.id), [VERBS.answered.id]);
  assert.equal(second.statements[0].result.success, false);

  // Every problem answered: the ideas and the practice are "completed", then "scored".
  let state = second.state;
  const verbs = [];
  for (const p of problems) {
    copy.recordAttempt(p.id, p.kind === 'number' ? { text: '1' } : p.kind === 'widget' ? { claim: 'impossible', state: {} } : { option: p.options[0].id }, false);
    const out = statementsSince(state, copy, problems, ctx);
    state = out.state;
    verbs.push(...out.statements.filter((s) => s.object.id === ctx.base).map((s) => s.verb.display['en-US']));
    for (const s of out.statements) assert.deepEqual(statementProblems(s), [], JSON.stringify(s));
  }
  assert.equal(verbs.at(-1), 'completed');
  copy.recordAttempt('prune', { option: 'slack' }, true);
  const after = statementsSince(state, copy, problems, ctx).statements;
  assert.deepEqual(after.map((s) => s.verb.display['en-US']), ['answered', 'scored', 'scored']);
});

test('the validator catches what a record store refuses', () => {
  const copy = newCopy();
  copy.recordAttempt('prune', { option: 'slack' }, true);
  const [good] = statementsSince({}, copy, problems, ctx).statements;
  const broken = (change) => { const s = structuredClone(good); change(s); return statementProblems(s); };
  assert.notDeepEqual(broken((s) => { delete s.actor; }), []);
  assert.notDeepEqual(broken((s) => { s.actor.account = { homePage: 'https://x.example', name: 'n' }; }), [], 'two identifiers');
  assert.notDeepEqual(broken((s) => { s.verb.id = 'answered'; }), []);
  assert.notDeepEqual(broken((s) => { s.object.id = 'not an iri'; }), []);
  assert.notDeepEqual(broken((s) => { s.result.score = { scaled: 1.5 }; }), []);
  assert.notDeepEqual(broken((s) => { s.timestamp = '2026-01-01 10:00'; }), []);
  assert.notDeepEqual(broken((s) => { s.extra = 1; }), []);
});

test('report-actor: an Agent with exactly one identifier, or a clear reason', () => {
  assert.deepEqual(parseActor('{"name":"Ada","mbox":"mailto:ada@example.org"}'), { objectType: 'Agent', mbox: 'mailto:ada@example.org', name: 'Ada' });
  assert.deepEqual(parseActor({ account: { homePage: 'https://lms.example', name: '42' } }), { objectType: 'Agent', account: { homePage: 'https://lms.example', name: '42' } });
  assert.throws(() => parseActor('ada@example.org'), /not JSON/);
  assert.throws(() => parseActor('{"name":"Ada"}'), /exactly one of mbox/);
  assert.throws(() => parseActor('{"mbox":"ada@example.org"}'), /mailto/);
  assert.throws(() => parseActor('{"account":{"name":"42"}}'), /homePage/);
});

test('report-endpoint: <endpoint>/statements, absolute or relative, http(s) only', () => {
  assert.equal(statementsUrl('https://lrs.example/xapi/', 'https://course.example/a/'), 'https://lrs.example/xapi/statements');
  assert.equal(statementsUrl('/lrs', 'https://course.example/a/page.html'), 'https://course.example/lrs/statements');
  assert.equal(statementsUrl('javascript:alert(1)', 'https://course.example/'), null);
  assert.equal(statementsUrl('http://[bad', 'https://course.example/'), null);
});

// Timers the test moves by hand.
function clock() {
  const timers = [];
  const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
  globalThis.setTimeout = (fn, ms) => { timers.push({ fn, ms }); return timers.length; };
  globalThis.clearTimeout = (id) => { if (id) timers[id - 1].fn = null; };
  return { timers, restore: () => Object.assign(globalThis, real), async fire() { const t = timers.filter((x) => x.fn).at(-1); const fn = t.fn; t.fn = null; await fn(); } };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('outbox: kept in storage, retried with growing delays, sent once each, in order', async () => {
  const storage = fakeStorage();
  const received = [];
  const answers = [0, 503, 'closed', 200, 200];
  const send = async (batch) => {
    const answer = answers.shift();
    if (answer === 'closed') throw new TypeError('Failed to fetch');
    if (answer === 200) received.push(...batch.map((s) => s.id));
    return answer === 0 ? 503 : answer;
  };
  const t = clock();
  try {
    const outbox = new Outbox({ storage, key: 'k', send, events: null });
    outbox.add([{ id: 'a' }, { id: 'b' }], { seen: { x: 1 }, tallies: {} });
    await settle();
    assert.equal(outbox.status.kind, 'waiting');
    assert.equal(JSON.parse(storage.getItem('k')).queue.length, 2, 'kept in storage while unsent');
    // A reload now would find them: a new outbox on the same storage has them.
    assert.deepEqual(new Outbox({ storage, key: 'k', send: async () => 0, events: null }).state.queue.map((s) => s.id), ['a', 'b']);
    outbox.add([{ id: 'c' }], { seen: { x: 2 }, tallies: {} }); // a retry is waiting: queued behind
    await t.fire(); // 503
    await settle();
    await t.fire(); // connection closed
    await settle();
    assert.deepEqual(t.timers.map((x) => x.ms), [1000, 2000, 4000], 'delays double');
    await t.fire();
    await settle();
    assert.deepEqual(received, ['a', 'b', 'c']);
    assert.equal(outbox.status.kind, 'sent');
    assert.deepEqual(JSON.parse(storage.getItem('k')), { queue: [], seen: { x: 2 }, tallies: {} });
  } finally {
    t.restore();
  }
});

test('outbox: a 409 for a batch sends one by one, and a 409 for one statement means the store has it; a 401 is "refused"', async () => {
  const stored = new Set(['b']);
  const calls = [];
  const send = async (batch) => {
    calls.push(batch.map((s) => s.id).join());
    if (batch.some((s) => stored.has(s.id))) return 409;
    batch.forEach((s) => stored.add(s.id));
    return 204;
  };
  const outbox = new Outbox({ storage: fakeStorage(), key: 'k', send, events: null });
  outbox.add([{ id: 'a' }, { id: 'b' }, { id: 'c' }], { seen: {}, tallies: {} });
  await settle();
  assert.deepEqual(calls, ['a,b,c', 'a', 'b', 'c']);
  assert.deepEqual([...stored].sort(), ['a', 'b', 'c']);
  assert.equal(outbox.state.queue.length, 0);

  const t = clock();
  try {
    const refused = new Outbox({ storage: fakeStorage(), key: 'k', send: async () => 401, events: null });
    refused.add([{ id: 'a' }], { seen: {}, tallies: {} });
    await settle();
    assert.deepEqual(refused.status, { kind: 'refused', code: 401, pending: 1 });
  } finally {
    t.restore();
  }
});

test('SCORM values: 1.2 percent score and lesson_status (passed/failed with a mastery score), 2004 scaled score, completion and success, objectives per idea, interactions', () => {
  const copy = newCopy();
  for (const p of problems) copy.recordAttempt(p.id, { option: 'x' }, p.id !== 'prune');
  const summary = summarize(copy, problems);
  const v12 = new Map(scormValues(summary, '1.2'));
  assert.equal(v12.get('cmi.core.score.raw'), String(Math.round(100 * (problems.length - 1) / problems.length)));
  assert.equal(v12.get('cmi.core.lesson_status'), 'completed');
  assert.equal(new Map(scormValues(summary, '1.2', { passing: 90 })).get('cmi.core.lesson_status'), 'failed');
  assert.equal(v12.get('cmi.objectives.1.id'), 'limits');
  const v04 = new Map(scormValues(summary, '2004', { passing: 0.8, interactions: [{ n: 0, problem: problems[0], attempt: copy.lastAnswer(problems[0].id) }] }));
  assert.equal(v04.get('cmi.score.scaled'), ((problems.length - 1) / problems.length).toFixed(4));
  assert.equal(v04.get('cmi.completion_status'), 'completed');
  assert.equal(v04.get('cmi.success_status'), 'passed');
  assert.equal(v04.get('cmi.interactions.0.result'), 'correct');
  assert.match(v04.get('cmi.interactions.0.timestamp'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  assert.equal(sessionTime(3725.5, '1.2'), '0001:02:05.50');
  assert.equal(sessionTime(3725.5, '2004'), 'PT3725.50S');
});

// A SCORM 1.2 API as a platform offers it, whose commits can be made to fail.
function fakeScorm12({ mastery = '' } = {}) {
  const values = new Map([['cmi.student_data.mastery_score', mastery], ['cmi.interactions._count', '0']]);
  const api = {
    commits: 0, failCommits: 0, finished: false, values, error: '0',
    LMSInitialize: () => 'true',
    LMSSetValue: (k, v) => { values.set(k, String(v)); const n = /^cmi\.interactions\.(\d+)\.id$/.exec(k); if (n) values.set('cmi.interactions._count', String(Math.max(Number(values.get('cmi.interactions._count')), Number(n[1]) + 1))); return 'true'; },
    LMSGetValue: (k) => values.get(k) ?? '',
    LMSCommit: () => { api.commits += 1; api.error = api.failCommits > 0 ? '101' : '0'; if (api.failCommits > 0) { api.failCommits -= 1; return 'false'; } return 'true'; },
    LMSFinish: () => { api.finished = true; return 'true'; },
    LMSGetLastError: () => api.error,
    LMSGetErrorString: (code) => (code === '101' ? 'General exception' : 'No error'),
  };
  return api;
}

test('SCORM reporter: found in a parent frame, a failed commit tried again with the same interactions (none twice), finish writes time and exit', async () => {
  const { findScormApi, scormReporter } = await import('../../web/widgets/practice/reporting/scorm.js');
  const api = fakeScorm12({ mastery: '50' });
  const top = { API: api };
  top.parent = top;
  const frame = { parent: top };
  const found = findScormApi(frame);
  assert.equal(found.calls.version, '1.2');
  assert.equal(findScormApi({ get parent() { throw new DOMException('cross-origin', 'SecurityError'); } }), null, 'a frame of another origin: not found, no error');

  const t = clock();
  try {
    const copy = newCopy();
    const reporter = scormReporter({ copy, problems: () => problems, found, started: Date.now() - 65_000 });
    reporter.update();
    assert.equal(reporter.status.kind, 'sent');
    assert.equal(api.values.get('cmi.core.lesson_status'), 'incomplete');
    api.failCommits = 1;
    copy.recordAttempt('prune', { option: 'slack' }, true);
    reporter.update();
    assert.equal(reporter.status.kind, 'waiting');
    assert.match(reporter.status.why, /101 General exception/);
    assert.deepEqual(t.timers.filter((x) => x.fn).map((x) => x.ms), [1000]);
    await t.fire();
    assert.equal(reporter.status.kind, 'sent');
    assert.equal(api.values.get('cmi.interactions._count'), '1', 'the retried interaction once, at index 0');
    copy.recordAttempt('wo-slices', { option: 'slice' }, true);
    reporter.update();
    assert.equal(api.values.get('cmi.interactions.1.id'), 'wo-slices');
    assert.equal(api.values.get('cmi.interactions._count'), '2');
    for (const p of problems) if (!copy.solved(p.id)) copy.recordAttempt(p.id, { option: 'x' }, false);
    reporter.update();
    assert.equal(api.values.get('cmi.core.lesson_status'), 'failed', `${api.values.get('cmi.core.score.raw')} is below the mastery score 50`);
    reporter.finish();
    assert.equal(api.finished, true);
    assert.match(api.values.get('cmi.core.session_time'), /^0000:01:0[56]\.\d\d$/);
    assert.equal(api.values.get('cmi.core.exit'), '');
  } finally {
    t.restore();
  }
});

test('two tabs on one storage: an attempt is reported once, by the tab where it was made; both send the queue, the store keeps it once', async () => {
  const { xapiReporter } = await import('../../web/widgets/practice/reporting/xapi.js');
  const posted = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    posted.push(...JSON.parse(init.body).map((s) => s.id));
    return { status: 200 };
  };
  try {
    const storage = fakeStorage();
    const copy = newCopy(storage);
    const tab = () => xapiReporter({ copy, problems: () => problems, url: 'https://lrs.example/xapi/statements', auth: () => null, ctx, storage });
    const [a, b] = [tab(), tab()];
    copy.recordAttempt('prune', { option: 'slack' }, true);
    a.update(); // the tab where the learner answered
    b.update(); // the other tab, told by the copy's storage event
    await settle();
    assert.equal(new Set(posted).size, 3, 'answered, the idea, the practice: once each');
    assert.deepEqual(a.outbox.state.queue, []);
    assert.deepEqual(b.outbox.state.queue, []);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test('SCORM reporter after "Start over": the score goes back, and the next answers are journaled again', async () => {
  const { scormReporter } = await import('../../web/widgets/practice/reporting/scorm.js');
  const api = fakeScorm12();
  const copy = newCopy();
  const reporter = scormReporter({ copy, problems: () => problems, found: { api, calls: { version: '1.2', init: 'LMSInitialize', set: 'LMSSetValue', get: 'LMSGetValue', commit: 'LMSCommit', finish: 'LMSFinish', error: 'LMSGetLastError', errorText: 'LMSGetErrorString' } } });
  copy.recordAttempt('prune', { option: 'slack' }, true);
  reporter.update();
  assert.equal(api.values.get('cmi.interactions._count'), '1');
  copy.startOver();
  reporter.update();
  assert.equal(api.values.get('cmi.core.score.raw'), '0');
  copy.recordAttempt('prune', { option: 'useless' }, false);
  reporter.update();
  assert.equal(api.values.get('cmi.interactions._count'), '2');
  assert.equal(api.values.get('cmi.interactions.1.result'), 'wrong');
});

test('report settings: off by default, each bad value named, the xAPI launch parameters fill in what the attributes leave out', async () => {
  const { reportSettings } = await import('../../web/widgets/practice/reporting/index.js');
  const el = (attributes, properties = {}) => ({ getAttribute: (name) => attributes[name] ?? null, reportActor: null, reportAuth: null, ...properties });
  const none = {};
  assert.equal(reportSettings(el({}), none), null, 'off without report');
  assert.equal(reportSettings(el({ report: 'off' }), none), null);
  assert.deepEqual(reportSettings(el({ report: 'scorm' }), none), { kind: 'scorm', where: 'scorm' });
  assert.deepEqual(reportSettings(el({ report: 'tincan' }), none).error, ['unknownKind', { value: 'tincan', kinds: 'scorm, xapi' }]);
  assert.deepEqual(reportSettings(el({ report: 'xapi' }), none).error, ['noEndpoint', {}]);
  assert.deepEqual(reportSettings(el({ report: 'xapi', 'report-endpoint': 'file:///lrs' }), none).error, ['badEndpoint', { value: 'file:///lrs' }]);
  const good = { report: 'xapi', 'report-endpoint': 'https://lrs.example/xapi', 'report-activity': 'https://course.example/attention/' };
  assert.match(reportSettings(el({ ...good, 'report-actor': '{"name":"Ada"}' }), none).error[1].why, /exactly one of mbox/);
  assert.equal(reportSettings(el({ ...good, 'report-activity': undefined }), none).error[0], 'badActivity', 'no page address here: report-activity is needed');
  const settings = reportSettings(el(good, { reportAuth: 'Bearer t' }), none);
  assert.equal(settings.url, 'https://lrs.example/xapi/statements');
  assert.equal(settings.base, 'https://course.example/attention');
  assert.equal(settings.auth(), 'Bearer t');
  const launched = reportSettings(el({ report: 'xapi' }), {
    endpoint: 'https://lrs.example/xapi/', auth: 'Basic abc', actor: '{"mbox":"mailto:ada@example.org"}',
    registration: '0b7b5fa2-3f0e-4d3c-9c55-0d1c2e3f4a5b', activity_id: 'https://course.example/practice',
  });
  assert.deepEqual([launched.url, launched.auth(), launched.actor.mbox, launched.registration, launched.base],
    ['https://lrs.example/xapi/statements', 'Basic abc', 'mailto:ada@example.org', '0b7b5fa2-3f0e-4d3c-9c55-0d1c2e3f4a5b', 'https://course.example/practice']);
  assert.equal(reportSettings(el({ report: 'xapi' }), { endpoint: 'https://lrs.example/', activity_id: 'urn:x:y', registration: 'not-a-uuid' }).registration, null);
});

test('SCORM reporter: a platform that refuses to start the session is asked again, and then told everything', async () => {
  const { scormReporter } = await import('../../web/widgets/practice/reporting/scorm.js');
  const api = fakeScorm12();
  let refusals = 2;
  api.LMSInitialize = () => (refusals-- > 0 ? 'false' : 'true');
  const t = clock();
  try {
    const copy = newCopy();
    copy.recordAttempt('prune', { option: 'slack' }, true);
    const reporter = scormReporter({ copy, problems: () => problems, found: { api, calls: { version: '1.2', init: 'LMSInitialize', set: 'LMSSetValue', get: 'LMSGetValue', commit: 'LMSCommit', finish: 'LMSFinish', error: 'LMSGetLastError', errorText: 'LMSGetErrorString' } } });
    reporter.update();
    assert.equal(reporter.status.kind, 'waiting');
    await t.fire();
    assert.equal(reporter.status.kind, 'sent');
    assert.equal(api.values.get('cmi.interactions.0.id'), 'prune');
    assert.equal(api.values.get('cmi.core.score.raw'), String(Math.round(100 / problems.length)));
  } finally {
    t.restore();
  }
});
