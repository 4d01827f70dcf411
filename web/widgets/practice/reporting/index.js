// Scores back to the learner's course platform, off unless a <mha-practice> asks:
//   report="scorm"                         the SCORM 1.2 or 2004 run-time API of the platform
//   report="xapi" report-endpoint="…"      xAPI statements to a record store (LRS)
//     report-auth / .reportAuth            its Authorization header value
//     report-actor / .reportActor          the learner as an xAPI Agent (JSON)
//     report-activity                      the base IRI of the activities
// (Where the platform launches the page the xAPI "launch" way, ?endpoint=&auth=&actor=
// &registration=&activity_id= in the address fill in what the attributes leave out.)
//
// The page reports once, for every practice block on it, to the place of its first block (in
// the page's order) whose `report` settings are good; a block asking for another place says so. Each block with
// `report` shows the one status line ("Scores not sent yet — will retry"); practice never
// waits for it. What is reported is computed from the learner's copy (scores.js), so a page
// that cannot reach the platform loses nothing: the next report carries it.
import { element, setText } from '../../../ui/dom.js';
import { blockProblems, ideaTitle, parseKinds, problemsFor } from '../practice-data.js';
import { findScormApi, scormReporter } from './scorm.js';
import { parseActor, newUuid } from './xapi-statements.js';
import { statementsUrl, xapiReporter } from './xapi.js';

export const REPORT_KINDS = ['scorm', 'xapi'];
const LEARNER_KEY = 'multiple-heads:report:learner';
const clip = (text) => String(text).slice(0, 80);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The xAPI launch parameters of the page's address (the platform's way to pass them). */
function launchParams() {
  const params = new URLSearchParams(globalThis.location?.search ?? '');
  return Object.fromEntries(['endpoint', 'auth', 'actor', 'registration', 'activity_id'].map((k) => [k, params.get(k)]));
}

/** The practice problems of every block on the page, in page order, each once. */
export function pageProblems(root = document) {
  const seen = new Map();
  for (const block of root.querySelectorAll('mha-practice[idea]')) {
    const idea = block.getAttribute('idea');
    if (problemsFor(idea).length === 0) continue;
    const { kinds } = parseKinds(block.getAttribute('kinds'));
    for (const { problem } of blockProblems(idea, kinds ?? [])) if (!seen.has(problem.id)) seen.set(problem.id, problem);
  }
  return [...seen.values()];
}

/**
 * An element's reporting settings: null (off), { error: [message key, params] }, or
 * { kind, where (one text per place reported to), ... } for the reporter.
 */
export function reportSettings(el, launch = launchParams()) {
  const kind = el.getAttribute('report')?.trim().toLowerCase() ?? '';
  if (kind === '' || kind === 'off') return null;
  if (!REPORT_KINDS.includes(kind)) return { error: ['unknownKind', { value: clip(kind), kinds: REPORT_KINDS.join(', ') }] };
  if (kind === 'scorm') return { kind, where: 'scorm' };
  const endpoint = el.getAttribute('report-endpoint') ?? launch.endpoint;
  if (!endpoint) return { error: ['noEndpoint', {}] };
  const url = statementsUrl(endpoint);
  if (!url) return { error: ['badEndpoint', { value: clip(endpoint) }] };
  let actor = null;
  const actorValue = el.reportActor ?? el.getAttribute('report-actor') ?? launch.actor;
  if (actorValue !== null && actorValue !== undefined) {
    try {
      actor = parseActor(actorValue);
    } catch (error) {
      return { error: ['badActor', { why: error.message }] };
    }
  }
  const page = globalThis.location ? `${location.origin}${location.pathname}` : '';
  const base = (el.getAttribute('report-activity') ?? launch.activity_id ?? (/^https?:/.test(page) ? page : '')).replace(/\/+$/, '');
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(base)) return { error: ['badActivity', { value: clip(base) }] };
  const auth = () => el.reportAuth ?? el.getAttribute('report-auth') ?? launch.auth ?? null;
  // A registration that is not a UUID would make the record store refuse every statement.
  const registration = UUID.test(launch.registration ?? '') ? launch.registration : null;
  return { kind, where: `xapi ${url}`, url, actor, base, auth, registration };
}

// A learner without a report-actor: one random name kept on this device, in an account of
// the record store's site, so their statements stay together without saying who they are.
function anonymousActor(storage, url) {
  let name = null;
  try { name = storage.getItem(LEARNER_KEY); } catch { /* memory only */ }
  if (!name) {
    name = newUuid();
    try { storage.setItem(LEARNER_KEY, name); } catch { /* memory only */ }
  }
  return { objectType: 'Agent', account: { homePage: new URL(url).origin, name } };
}

function startReporter(settings, session, m) {
  const { copy } = session;
  const problems = () => pageProblems();
  if (settings.kind === 'scorm') {
    const found = findScormApi();
    if (!found) return { status: { kind: 'noLms' }, addEventListener() {}, update() {}, close() {} };
    const reporter = scormReporter({ copy, problems, found });
    globalThis.addEventListener('pagehide', () => reporter.finish(), { once: true });
    return reporter;
  }
  const ctx = {
    actor: settings.actor ?? anonymousActor(copy.storage, settings.url),
    base: settings.base, lang: m.locale, registration: settings.registration, now: Date.now,
    titleOf: (idea) => ideaTitle(idea, m.locale), lessonTitle: 'Multiple Heads: practice',
  };
  const { outbox, update } = xapiReporter({ copy, problems, url: settings.url, auth: settings.auth, ctx, storage: copy.storage });
  globalThis.addEventListener('pagehide', () => outbox.close(), { once: true });
  return Object.assign(outbox, { update });
}

// Reports only when what the platform is told changed (attempts, solved), not on every
// widget drag that changes the copy.
function signature(copy, problems) {
  return problems.map((p) => `${p.id}:${copy.attemptCount(p.id)}:${copy.solved(p.id) ? 1 : 0}`).join(',');
}

const parsed = () => (document.readyState === 'loading'
  ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }))
  : Promise.resolve());

// The page's place to report to: the first block in the page's order whose settings are
// good (not the first to load its code), so every block agrees whatever the timing.
function pagePlace() {
  for (const el of document.querySelectorAll('mha-practice[report]')) {
    const settings = reportSettings(el);
    if (settings && !settings.error) return settings;
  }
  return null;
}

function pageReporter(session, m) {
  if (session.reporting) return session.reporting;
  const settings = pagePlace();
  const reporter = startReporter(settings, session, m);
  let last = null;
  const update = () => {
    const now = signature(session.copy, pageProblems());
    if (now === last) return;
    last = now;
    reporter.update();
  };
  // The page is parsed: the first report covers every block of it.
  update();
  session.copy.addEventListener('change', update);
  session.copy.addEventListener('replaced', update);
  session.reporting = { settings, reporter };
  return session.reporting;
}

/**
 * The reporting part of one <mha-practice>, once the page is parsed: nothing (no `report`),
 * an error (bad settings, or another place than the page reports to), or the status line.
 */
export async function reportingLine(el, session, m) {
  await parsed();
  const settings = reportSettings(el);
  if (settings === null) return null;
  const error = (key, params) => element('p', { className: 'error', role: 'alert', textContent: m.t(`report.${key}`, params) });
  if (settings.error) return error(...settings.error);
  const { settings: chosen, reporter } = pageReporter(session, m);
  if (chosen.where !== settings.where) return error('otherPlace', { where: clip(chosen.where) });
  const line = element('p', { className: 'report-status', role: 'status', hidden: true });
  const show = () => {
    const { kind, code, why } = reporter.status;
    if (kind === 'sending') return; // the line keeps what it said until the answer
    line.dataset.report = kind;
    const text = kind === 'idle' ? '' : m.t(`report.${kind}`, { why: why || (code ? `HTTP ${code}` : m.t('report.noAnswer')) });
    setText(line, text);
    line.hidden = text === '';
  };
  reporter.addEventListener('status', show);
  show();
  return line;
}
