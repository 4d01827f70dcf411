// The SCORM side: the learning platform's run-time API, found as the SCORM specifications say
// (API_1484_11 for SCORM 2004, API for SCORM 1.2, in this window or a parent, then in the
// opener's), told the score and completion of the practice on this page, each idea as an
// objective and each checked answer as an interaction; committed after every change and
// terminated when the page goes away.
import { responseText, summarize } from './scores.js';

const MAX_PARENTS = 500; // the ADL's search gives up after this many frames
const VERSIONS = [
  { version: '2004', name: 'API_1484_11', init: 'Initialize', set: 'SetValue', get: 'GetValue', commit: 'Commit', finish: 'Terminate', error: 'GetLastError', errorText: 'GetErrorString' },
  { version: '1.2', name: 'API', init: 'LMSInitialize', set: 'LMSSetValue', get: 'LMSGetValue', commit: 'LMSCommit', finish: 'LMSFinish', error: 'LMSGetLastError', errorText: 'LMSGetErrorString' },
];

function searchFrames(start, name) {
  let win = start;
  try {
    for (let tries = 0; win && tries <= MAX_PARENTS; tries += 1) {
      if (win[name]) return win[name];
      if (!win.parent || win.parent === win) return null;
      win = win.parent;
    }
  } catch { /* a frame of another origin: its API is not reachable from here */ }
  return null;
}

/** { api, calls } of the first SCORM version found from `win`, or null. */
export function findScormApi(win = globalThis) {
  for (const calls of VERSIONS) {
    let api = searchFrames(win, calls.name);
    try {
      if (!api && win.opener) api = searchFrames(win.opener, calls.name);
    } catch { /* an opener of another origin */ }
    if (api && typeof api[calls.set] === 'function') return { api, calls };
  }
  return null;
}

const pad = (n, width = 2) => String(n).padStart(width, '0');
/** Seconds as SCORM 1.2's CMITimespan (HHHH:MM:SS.SS) or SCORM 2004's duration (PT…S). */
export function sessionTime(seconds, version) {
  const s = Math.max(0, seconds);
  if (version === '2004') return `PT${s.toFixed(2)}S`;
  const h = Math.min(9999, Math.floor(s / 3600));
  return `${pad(h, 4)}:${pad(Math.floor(s / 60) % 60)}:${pad((s % 60).toFixed(2), 5)}`;
}

const stamp = (at, version) => {
  const iso = new Date(at).toISOString();
  return version === '2004' ? iso.slice(0, 19) : iso.slice(11, 19);
};

/** The data model values for the practice's state (an array of [element, value] in order). */
export function scormValues(summary, version, { passing = null, interactions = [] } = {}) {
  const { overall } = summary;
  const values = [];
  const v12 = version === '1.2';
  if (v12) {
    const percent = Math.round(overall.scaled * 100);
    const status = !overall.complete ? 'incomplete' : passing === null ? 'completed' : percent >= passing ? 'passed' : 'failed';
    values.push(['cmi.core.score.min', '0'], ['cmi.core.score.max', '100'], ['cmi.core.score.raw', String(percent)], ['cmi.core.lesson_status', status]);
  } else {
    values.push(['cmi.score.min', '0'], ['cmi.score.max', String(overall.total)], ['cmi.score.raw', String(overall.solved)],
      ['cmi.score.scaled', overall.scaled.toFixed(4)], ['cmi.completion_status', overall.complete ? 'completed' : 'incomplete'],
      ['cmi.success_status', !overall.complete || passing === null ? 'unknown' : overall.scaled >= passing ? 'passed' : 'failed']);
  }
  summary.ideas.forEach((idea, n) => {
    const at = `cmi.objectives.${n}`;
    values.push([`${at}.id`, idea.id]);
    if (v12) {
      values.push([`${at}.score.min`, '0'], [`${at}.score.max`, '100'], [`${at}.score.raw`, String(Math.round(idea.scaled * 100))],
        [`${at}.status`, idea.complete ? 'completed' : idea.answered ? 'incomplete' : 'not attempted']);
    } else {
      values.push([`${at}.score.scaled`, idea.scaled.toFixed(4)], [`${at}.completion_status`, idea.complete ? 'completed' : idea.answered ? 'incomplete' : 'not attempted']);
    }
  });
  for (const { n, problem, attempt } of interactions) values.push(...interactionValues(n, problem, attempt, version));
  return values;
}

function interactionValues(n, problem, attempt, version) {
  const at = `cmi.interactions.${n}`;
  const choice = problem.kind === 'choose' || problem.kind === 'predict';
  const response = responseText(attempt.answer).replace(/[^\w.\-+ ]/g, '').slice(0, 250);
  if (version === '1.2') {
    return [[`${at}.id`, problem.id], [`${at}.type`, choice ? 'choice' : problem.kind === 'number' ? 'fill-in' : 'performance'],
      [`${at}.student_response`, response], [`${at}.result`, attempt.correct ? 'correct' : 'wrong'], [`${at}.time`, stamp(attempt.at, version)]];
  }
  return [[`${at}.id`, problem.id], [`${at}.type`, choice ? 'choice' : problem.kind === 'number' ? 'fill-in' : 'other'],
    [`${at}.timestamp`, stamp(attempt.at, version)], [`${at}.learner_response`, response],
    [`${at}.result`, attempt.correct ? 'correct' : 'incorrect'], [`${at}.objectives.0.id`, problem.idea]];
}

/**
 * The SCORM reporter over a found API: update() writes the practice's state and commits
 * (a failed commit is tried again, 1 s, 2 s … up to 5 minutes later); finish() ends the
 * session (pagehide). Its `status` and 'status' events are the Outbox's.
 */
export function scormReporter({ copy, problems, found, baseDelay = 1000, started = Date.now() }) {
  const { api, calls } = found;
  const { version } = calls;
  const events = new EventTarget();
  const call = (name, ...args) => String(api[calls[name]](...args));
  const lastError = () => `${call('error')} ${call('errorText', call('error'))}`.trim();
  const setStatus = (status) => {
    events.status = status;
    events.dispatchEvent(new Event('status'));
  };
  let open = false;
  let finished = false;
  let passing = null;
  let next = 0; // the interactions journal's next index
  const initialize = () => {
    open = call('init', '') === 'true' || call('error') === '103'; // 103: already initialised
    if (!open) return;
    const passingText = call('get', version === '1.2' ? 'cmi.student_data.mastery_score' : 'cmi.scaled_passing_score');
    passing = passingText === '' || Number.isNaN(Number(passingText)) ? null : Number(passingText);
    next = Number(call('get', 'cmi.interactions._count')) || 0;
  };
  initialize();
  const seen = {};
  let timer = null;
  let failures = 0;
  const update = () => {
    if (finished) return undefined;
    clearTimeout(timer);
    timer = null;
    if (!open) initialize(); // the platform refused to start the session: asked again at each retry
    if (!open) return retry(null);
    const list = problems();
    // Fewer checks than reported: the learner started over or imported a copy; count again from there.
    for (const p of list) seen[p.id] = Math.min(seen[p.id] ?? 0, copy.attemptCount(p.id));
    const fresh = list.filter((p) => copy.attemptCount(p.id) > (seen[p.id] ?? 0)).map((problem, k) => ({ n: next + k, problem, attempt: copy.lastAnswer(problem.id) }));
    const values = scormValues(summarize(copy, list), version, { passing, interactions: fresh });
    const refused = values.find(([element, value]) => call('set', element, value) !== 'true');
    if (!refused && call('commit', '') === 'true') {
      failures = 0;
      next += fresh.length;
      for (const { problem } of fresh) seen[problem.id] = copy.attemptCount(problem.id);
      return setStatus({ kind: 'sent' });
    }
    return retry(refused);
  };
  // Not taken: the copy keeps everything, and the whole state is written again later.
  const retry = (refused) => {
    failures += 1;
    timer = setTimeout(update, Math.min(300_000, baseDelay * 2 ** (failures - 1)));
    return setStatus({ kind: 'waiting', why: `${refused ? `${refused[0]}: ` : ''}${lastError()}` });
  };
  const finish = () => {
    clearTimeout(timer);
    finished = true;
    if (!open) return;
    const complete = summarize(copy, problems()).overall.complete;
    const seconds = (Date.now() - started) / 1000;
    if (version === '1.2') {
      call('set', 'cmi.core.session_time', sessionTime(seconds, version));
      call('set', 'cmi.core.exit', complete ? '' : 'suspend');
    } else {
      call('set', 'cmi.session_time', sessionTime(seconds, version));
      call('set', 'cmi.exit', complete ? 'normal' : 'suspend');
    }
    // No Commit first: Terminate commits (SCORM says so), and a second request here would be
    // a synchronous one in the page's dismissal, which browsers refuse (Chromium does, and a
    // runtime such as scorm-again commits by synchronous XHR): every change was committed
    // as it happened, so only the time and exit ride on Terminate.
    call('finish', '');
    open = false;
  };
  events.status = { kind: 'sending' };
  return Object.assign(events, { version, update, finish, close: finish });
}
