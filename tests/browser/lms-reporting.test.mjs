// Scores back to the LMS (issue 23), against an LMS-side runtime and a record store:
//  * SCORM: the packages of scripts/build-scorm-package.mjs are imported as a platform does
//    (unzipped, imsmanifest.xml read for its SCO), the SCO launched in a frame of a page that
//    installs scorm-again's Scorm12API / Scorm2004API as window.API / window.API_1484_11; a
//    learner answers by clicks and keys; score, completion, success, objectives per idea
//    and interactions arrive in the runtime's cmi and, through its commits, at the
//    platform's server (which refuses two commits first: the page tries again); leaving
//    the SCO terminates the session.
//  * xAPI: <mha-practice report="xapi"> posts to a record store on 127.0.0.1 (another
//    origin: CORS, the page's CSP allows it) that checks every statement's required fields
//    (tests/node/xapi-validate.mjs); the store answers 503, then closes the connection
//    (once after storing), then is back: nothing lost, nothing stored twice, the status line
//    says so; statements queued at a reload are sent by the next visit.
// Three page loads in all (one per SCORM version, one xAPI page and its reload).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { unzipSync, strFromU8 } from 'fflate';
import { buildAllWidgets, newWatchedPage, openTestBrowser, useCourseSite } from './browser.mjs';
import { axeViolations } from './axe.mjs';
import { STRICT_CSP, serveStatic } from '../../scripts/lib/static-server.mjs';
import { PACKAGES, buildScormPackages } from '../../scripts/build-scorm-package.mjs';
import { problemById } from '../../web/widgets/practice/practice-data.js';
import { STORAGE_KEY } from '../../web/widgets/shared/learner-copy.js';
import { statementProblems } from '../node/xapi-validate.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// scorm-again writes cmi.objectives and cmi.interactions as { 0: …, 1: … }.
const list = (array) => Object.values(array ?? {});
const rightOption = (id) => problemById(id).options.find((o) => o.correct).id;
const wrongOption = (id) => problemById(id).options.find((o) => !o.correct).id;

/**
 * Opens the block of `idea` (if closed) and answers `id`: an option id, or text for a number;
 * waits for the verdict (or, `message`, for the message a text that is not a number gets).
 */
async function answer(root, idea, id, value, { message = false } = {}) {
  const block = root.locator(`mha-practice[idea="${idea}"]`);
  const details = block.locator('details.practice');
  if (!(await details.evaluate((d) => d.open))) await block.locator('summary').click();
  const problem = block.locator(`fieldset[data-problem="${id}"]`);
  if (problemById(id).kind === 'number') {
    await problem.locator('input.answer').fill(value);
    await problem.locator('input.answer').press('Enter');
  } else {
    await problem.locator(`input[value="${value}"]`).check();
    await problem.getByRole('button', { name: 'Check' }).click();
  }
  // A text that is not a number gets a message (the field marked invalid); a verdict starts with its <strong>.
  await problem.locator(message ? 'input.answer[aria-invalid="true"]' : '.feedback:is(.right, .wrong):has(strong)').first().waitFor();
}

/**
 * The platform's server: scorm-again's commits (the whole cmi, as JSON) POSTed to /commit
 * (from another origin: CORS), recorded; `plan` holds 503s to answer the next commits with.
 */
function lmsServer() {
  const lms = { commits: [], plan: [], url: null, server: null };
  lms.server = http.createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    if (request.method === 'OPTIONS') return response.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type' }).end();
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      if (lms.plan.shift() === 503) return response.writeHead(503).end();
      lms.commits.push(JSON.parse(body));
      return response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"result":true,"errorCode":0}');
    });
  });
  return new Promise((resolve) => lms.server.listen(0, '127.0.0.1', () => {
    lms.url = `http://127.0.0.1:${lms.server.address().port}/commit`;
    resolve(lms);
  }));
}

describe('SCORM packages in an LMS runtime (scorm-again)', () => {
  let browser, server, dir, lms;
  const manifests = {};
  // The SCO's address, as the platform finds it: the manifest's resource for its item.
  const launch = (version) => `${version}/${/<resource [^>]*href="([^"]+)"/.exec(manifests[version])[1]}`;
  before(async () => {
    lms = await lmsServer();
    dir = mkdtempSync(path.join(tmpdir(), 'mha-lms-'));
    const built = await buildScormPackages(path.join(dir, 'packages'));
    assert.equal(built.length, 2);
    // The platform's import: unzip each package into its own folder.
    for (const [version, name] of Object.entries(PACKAGES)) {
      const files = unzipSync(new Uint8Array(readFileSync(path.join(dir, 'packages', name))));
      for (const [file, bytes] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, version, file)), { recursive: true });
        writeFileSync(path.join(dir, version, file), bytes);
      }
      manifests[version] = strFromU8(files['imsmanifest.xml']);
    }
    mkdirSync(path.join(dir, 'runtime'));
    for (const file of ['scorm12.min.js', 'scorm2004.min.js']) copyFileSync(path.join(ROOT, 'node_modules/scorm-again/dist', file), path.join(dir, 'runtime', file));
    writeFileSync(path.join(dir, 'runtime/lms.js'), LMS_SCRIPT);
    for (const version of Object.keys(PACKAGES)) {
      const runtime = version === '1.2' ? 'scorm12.min.js' : 'scorm2004.min.js';
      writeFileSync(path.join(dir, `lms-${version}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">
<script src="runtime/${runtime}"></script><script src="runtime/lms.js"></script></head><body><h1>Course</h1></body></html>`);
    }
    // The platform's pages under the strict policy; the SCO under its own (its meta tag).
    server = await serveStatic(dir, { csp: (file) => (/\/(1\.2|2004)\//.test(file) ? null : `${STRICT_CSP}; connect-src 'self' ${new URL(lms.url).origin}`) });
    browser = await openTestBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    lms?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('each manifest is a valid package of its version: schema, organization, item, the SCO resource and its file', async () => {
    const page = await browser.newPage();
    for (const [version, xml] of Object.entries(manifests)) {
      const facts = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
        const root = doc.documentElement;
        const orgs = root.getElementsByTagName('organizations')[0];
        const org = [...root.getElementsByTagName('organization')].find((o) => o.getAttribute('identifier') === orgs.getAttribute('default'));
        const item = org?.getElementsByTagName('item')[0];
        const resource = [...root.getElementsByTagName('resource')].find((r) => r.getAttribute('identifier') === item?.getAttribute('identifierref'));
        return {
          namespace: root.namespaceURI, schema: root.getElementsByTagName('schema')[0]?.textContent,
          schemaversion: root.getElementsByTagName('schemaversion')[0]?.textContent,
          scormType: resource?.getAttributeNS('http://www.adlnet.org/xsd/adlcp_rootv1p2', 'scormtype') || resource?.getAttributeNS('http://www.adlnet.org/xsd/adlcp_v1p3', 'scormType'),
          href: resource?.getAttribute('href'), files: [...(resource?.getElementsByTagName('file') ?? [])].map((f) => f.getAttribute('href')),
          title: org?.getElementsByTagName('title')[0]?.textContent,
        };
      }, xml);
      assert.equal(facts.error, undefined, `${version}: well-formed XML`);
      assert.equal(facts.namespace, version === '1.2' ? 'http://www.imsproject.org/xsd/imscp_rootv1p1p2' : 'http://www.imsglobal.org/xsd/imscp_v1p1');
      assert.equal(facts.schema, 'ADL SCORM');
      assert.equal(facts.schemaversion, version === '1.2' ? '1.2' : '2004 4th Edition');
      assert.equal(facts.scormType, 'sco');
      assert.equal(facts.href, 'index.html');
      assert.deepEqual(facts.files, ['index.html']);
      assert.ok(facts.title);
    }
    await page.close();
  });

  test('SCORM 1.2: answers by clicks and keys arrive at the platform’s server as score, lesson_status, objectives and interactions, through failed commits; leaving the SCO ends the session', async () => {
    const { page, problems } = await newWatchedPage(browser, { width: 1000, height: 900 });
    await page.goto(`${server.url}lms-1.2.html?sco=${launch('1.2')}&commit=${encodeURIComponent(lms.url)}`);
    const sco = page.frameLocator('iframe');
    await sco.locator('mha-practice[report="scorm"] .report-status[data-report="sent"]').waitFor({ timeout: 30000 });
    // Every block built, as a learner scrolling through it would (a block far from the view
    // makes its problems when it comes near).
    await buildAllWidgets(page.frames().find((frame) => frame !== page.mainFrame()));
    const cmi = () => page.evaluate(() => JSON.parse(JSON.stringify(window.API.cmi)));
    assert.equal((await cmi()).core.lesson_status, 'incomplete', 'launched: incomplete');
    // Every problem of the SCO: all right but one number.
    const problemsShown = await sco.locator('fieldset[data-problem]').evaluateAll((els) => els.map((el) => [el.getRootNode().host.getAttribute('idea'), el.dataset.problem]));
    assert.equal(problemsShown.length, 10);
    // The platform's server is down for the first answer's commits: the line says so, the
    // page tries again, and the commit arrives.
    lms.plan.push(503, 503);
    await answer(sco, 'one-average', 'blend-why', rightOption('blend-why'));
    await sco.locator('.report-status', { hasText: 'Scores not sent yet — will retry' }).waitFor();
    await sco.locator('.report-status[data-report="sent"]').waitFor({ timeout: 15000 });
    assert.equal(lms.plan.length, 0);
    assert.equal(lms.commits.at(-1).cmi.core.score.raw, '10', 'the first answer arrived after the failures');
    for (const [idea, id] of problemsShown.filter(([, id]) => id !== 'blend-why')) {
      const value = problemById(id).kind === 'number' ? { 'dk-768': 'sixty', 'score-ratio': '1', 'rank-bound': '3', 'rank-one-head': '0' }[id] : rightOption(id);
      await answer(sco, idea, id, value, { message: id === 'dk-768' });
    }
    // 'sixty' is not a number: no attempt. Then 64, by keys.
    await answer(sco, 'construction', 'dk-768', '64');
    const right = await sco.locator('fieldset[data-problem] .feedback.right').count();
    const data = await cmi();
    assert.equal(data.core.score.raw, String(Math.round((100 * right) / 10)), `${right} of 10 right`);
    assert.equal(data.core.score.min, '0');
    assert.equal(data.core.score.max, '100');
    assert.equal(data.core.lesson_status, 'completed');
    assert.deepEqual(list(data.objectives).map((o) => o.id), ['one-average', 'construction', 'same-arithmetic', 'rank-price', 'wo', 'not-copies', 'limits']);
    assert.ok(list(data.objectives).every((o) => o.status === 'completed'));
    const interactions = list(data.interactions);
    assert.equal(interactions.length, 10, 'one per checked answer (the text that is not a number is no attempt)');
    assert.deepEqual(interactions.find((i) => i.id === 'dk-768')?.result, 'correct');
    assert.ok(interactions.filter((i) => i.result === 'correct').length === right);
    // The platform's server has what its runtime has.
    const committed = lms.commits.at(-1).cmi;
    assert.deepEqual([committed.core.score.raw, committed.core.lesson_status], [data.core.score.raw, 'completed']);
    // The platform closes the SCO: its session ends with the time spent and exit.
    await page.evaluate(() => { document.querySelector('iframe').src = 'about:blank'; });
    await page.waitForFunction(() => window.API.isTerminated());
    assert.match((await cmi()).core.session_time ?? '', /^\d{2,4}:\d{2}:\d{2}/);
    // Terminate's commit reached the platform's server with the session's time and exit.
    assert.match(lms.commits.at(-1).cmi.core.session_time, /^\d{2,4}:\d{2}:\d{2}/);
    assert.equal(lms.commits.at(-1).cmi.core.exit, '');
    // The browser and the runtime log the two refused commits; nothing else may appear.
    const expected = /503 \(Service Unavailable\)|SCORM Error 101|throwSCORMError +: api +101/;
    assert.deepEqual(problems.filter((p) => !expected.test(p)), []);
    await page.close();
  });

  test('SCORM 2004: scaled score, completion and success (against the passing score the LMS sets), objectives per idea', async () => {
    const { page, problems } = await newWatchedPage(browser, { width: 1000, height: 900 });
    await page.goto(`${server.url}lms-2004.html?sco=${launch('2004')}&passing=0.5`);
    const sco = page.frameLocator('iframe');
    await sco.locator('.report-status[data-report="sent"]').waitFor({ timeout: 30000 });
    const cmi = () => page.evaluate(() => JSON.parse(JSON.stringify(window.API_1484_11.cmi)));
    await answer(sco, 'limits', 'prune', rightOption('prune'));
    await answer(sco, 'limits', 'narrow-tradeoff', wrongOption('narrow-tradeoff'));
    // The SCO as the learner sees it, two blocks open and the status line shown: axe finds nothing.
    assert.deepEqual(await axeViolations(page.frames().find((f) => f !== page.mainFrame())), [], 'axe, in the SCO');
    let data = await cmi();
    assert.equal(data.completion_status, 'incomplete');
    assert.equal(data.success_status, 'unknown');
    assert.equal(Number(data.score.scaled), 0.1);
    assert.equal(data.score.raw, '1');
    assert.equal(data.score.max, '10');
    const limits = list(data.objectives).find((o) => o.id === 'limits');
    assert.equal(limits.completion_status, 'incomplete');
    assert.equal(Number(limits.score.scaled), Number((1 / 3).toFixed(4)));
    assert.deepEqual(list(data.interactions).map((i) => [i.id, i.type, i.learner_response, i.result]),
      [['prune', 'choice', rightOption('prune'), 'correct'], ['narrow-tradeoff', 'choice', wrongOption('narrow-tradeoff'), 'incorrect']]);
    // The rest, all right: completed, and passed (scaled 0.9 >= 0.5).
    for (const [idea, id, value] of [['one-average', 'blend-why'], ['construction', 'dk-768', '64'], ['same-arithmetic', 'score-ratio', '1'], ['same-arithmetic', 'cost-choose'],
      ['rank-price', 'rank-bound', '3'], ['wo', 'wo-slices'], ['not-copies', 'copies-why'], ['limits', 'rank-one-head', '12']]) {
      await answer(sco, idea, id, value ?? rightOption(id));
    }
    const right = await sco.locator('fieldset[data-problem] .feedback.right').count();
    data = await cmi();
    assert.equal(data.completion_status, 'completed');
    assert.equal(Number(data.score.scaled), right / 10);
    assert.equal(data.success_status, right / 10 >= 0.5 ? 'passed' : 'failed');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

// The platform's side of the test: scorm-again as the SCORM API, then the SCO in a frame.
const LMS_SCRIPT = `
const params = new URLSearchParams(location.search);
const settings = { logLevel: 4, autocommit: false, lmsCommitUrl: params.get('commit') ?? false };
if (window.Scorm12API) {
  window.API = new Scorm12API(settings);
} else {
  window.API_1484_11 = new Scorm2004API(settings);
  if (params.get('passing')) window.API_1484_11.loadFromJSON({ scaled_passing_score: params.get('passing') }, '');
}
addEventListener('DOMContentLoaded', () => {
  const frame = document.createElement('iframe');
  frame.title = 'Practice';
  frame.width = 900;
  frame.height = 700;
  frame.src = params.get('sco');
  document.body.append(frame);
});
`;

/**
 * A record store on 127.0.0.1: POST <endpoint>/statements (CORS for another origin), every
 * statement checked against xAPI 1.0.3 (a bad one: 400, and the test fails), stored by id
 * (an id it has is not stored again, as the spec says). `plan` is what it does with the next
 * requests: 503, 'close' (no answer), 'store-close' (stores, then closes without answering).
 */
function recordStore(auth) {
  const store = { stored: new Map(), received: 0, rejected: [], plan: [], url: null, server: null };
  store.server = http.createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Experience-API-Version' });
      return response.end();
    }
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      const step = store.plan.shift() ?? 'ok';
      if (step === 'close') return request.socket.destroy();
      if (step === 503) return response.writeHead(503).end();
      if (request.url !== '/xapi/statements' || request.method !== 'POST') return response.writeHead(404).end();
      if (request.headers['x-experience-api-version'] !== '1.0.3') store.rejected.push('no X-Experience-API-Version: 1.0.3');
      if (request.headers.authorization !== auth) store.rejected.push(`Authorization: ${request.headers.authorization}`);
      const statements = [JSON.parse(body)].flat();
      for (const s of statements) {
        store.received += 1;
        const problems = statementProblems(s);
        if (problems.length) store.rejected.push(...problems);
        else if (!store.stored.has(s.id)) store.stored.set(s.id, s);
      }
      if (step === 'store-close') return request.socket.destroy();
      if (store.rejected.length) return response.writeHead(400).end();
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(statements.map((s) => s.id)));
    });
  });
  return new Promise((resolve) => store.server.listen(0, '127.0.0.1', () => {
    store.url = `http://127.0.0.1:${store.server.address().port}/xapi/`;
    resolve(store);
  }));
}

describe('xAPI to a record store on 127.0.0.1', () => {
  const AUTH = 'Basic dGVzdDp0ZXN0';
  let store;
  before(async () => { store = await recordStore(AUTH); });
  after(() => store?.server.close());
  const page = () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attention: practice</title><link rel="icon" href="data:,">
<script type="module" src="course/attention/multiple-heads.js"></script><script type="module" src="auth.js"></script></head>
<body><main><h1>Practice</h1>
<mha-practice idea="limits" kinds="number choose" report="xapi" report-endpoint="${store.url}"
  report-actor='{"name":"Ada","mbox":"mailto:ada@example.org"}' report-activity="https://course.example/attention"></mha-practice>
<mha-practice idea="wo" kinds="choose" report="scorm-ish"></mha-practice>
<mha-practice idea="not-copies" kinds="choose" report="xapi" report-endpoint="ftp://lrs.example/"></mha-practice>
<mha-practice report="scorm"></mha-practice>
</main></body></html>`;
  // The credentials as a property, set by the page's own script: not in the HTML.
  const authScript = () => `customElements.whenDefined('mha-practice').then(() => { for (const el of document.querySelectorAll('mha-practice[report]')) el.reportAuth = ${JSON.stringify(AUTH)}; });\n`;
  const course = useCourseSite({
    mount: 'course/attention',
    prefix: 'mha-xapi-',
    files: () => ({ 'lesson.html': page(), 'auth.js': authScript() }),
    // The course page's policy lets it reach its record store, and nothing else.
    csp: () => `${STRICT_CSP}; connect-src 'self' ${new URL(store.url).origin}`,
  });

  test('statements arrive valid; 503 and lost connections are retried with nothing lost or stored twice; a reload sends what was queued; bad settings are named', async () => {
    const { page: tab, problems } = await newWatchedPage(course.browser, { width: 1000, height: 900 });
    await tab.goto(`${course.url}lesson.html`);
    const block = tab.locator('mha-practice[report="xapi"]').first();
    const status = block.locator('.report-status');
    await block.locator('details.practice').waitFor();
    // Bad settings: a clear message in their own block, practice still works there.
    assert.match(await tab.locator('mha-practice[report="scorm-ish"] .error').textContent(), /report="scorm-ish" is not known: use one of scorm, xapi/);
    assert.match(await tab.locator('mha-practice[idea="not-copies"] .error').textContent(), /report-endpoint="ftp:\/\/lrs.example\/" is not an http\(s\) address/);
    assert.match(await tab.locator('mha-practice[report="scorm"] .error').textContent(), /already reports scores \(xapi http:\/\/127\.0\.0\.1:\d+\/xapi\/statements\); a page reports to one place/);

    await answer(tab, 'limits', 'prune', rightOption('prune'));
    await waitFor(() => store.stored.size === 3, 'the first three statements');
    await status.filter({ hasText: 'Your scores are sent' }).waitFor();

    // The store fails: 503, then a connection closed before an answer, then one that stores
    // and closes (the page cannot know it arrived: it sends it again, same ids).
    store.plan.push(503, 'close', 'store-close');
    await answer(tab, 'limits', 'narrow-tradeoff', wrongOption('narrow-tradeoff'));
    await status.filter({ hasText: 'Scores not sent yet — will retry' }).waitFor();
    assert.deepEqual(await axeViolations(tab), [], 'axe, with the status line and the errors shown');
    await answer(tab, 'limits', 'narrow-tradeoff', rightOption('narrow-tradeoff'));
    await waitFor(() => store.plan.length === 0 && store.stored.size >= 3 + 2 + 3, 'the statements after the failures', 20000);
    await status.filter({ hasText: 'Your scores are sent' }).waitFor({ timeout: 20000 });

    // Unreachable (the connection refused) over a reload: the statements wait in the learner's
    // storage and the next visit sends them.
    const unreachable = `${new URL(store.url).origin}/**`;
    await tab.route(unreachable, (route) => route.abort('connectionrefused'));
    await answer(tab, 'limits', 'rank-one-head', '12');
    await status.filter({ hasText: 'Scores not sent yet' }).waitFor();
    const queued = await tab.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('multiple-heads:report:xapi:')).map((k) => JSON.parse(localStorage.getItem(k)).queue.length));
    assert.ok(queued[0] > 0, 'queued in storage');
    await tab.reload();
    await block.locator('details.practice').waitFor();
    await tab.unroute(unreachable);
    await waitFor(() => [...store.stored.values()].some((s) => s.object.id.endsWith('/problems/rank-one-head')), 'the queued statements, sent after the reload', 20000);
    await waitFor(async () => (await tab.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('multiple-heads:report:xapi:')).map((k) => JSON.parse(localStorage.getItem(k)).queue.length)))[0] === 0, 'the queue empty');

    // Nothing lost: one "answered" per check the learner's copy records, each once.
    const copy = await tab.evaluate((key) => JSON.parse(localStorage.getItem(key)), STORAGE_KEY);
    const stored = [...store.stored.values()];
    const answered = stored.filter((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/answered');
    const attempts = Object.entries(copy.answers).flatMap(([id, r]) => r.attempts.map((a) => `${id} ${new Date(a.at).toISOString()} ${a.correct}`)).sort();
    assert.deepEqual(answered.map((s) => `${s.object.id.split('/').at(-1)} ${s.timestamp} ${s.result.success}`).sort(), attempts);
    assert.ok(store.received > store.stored.size, 'a statement arrived twice (stored, then the connection closed) and was stored once');
    assert.deepEqual(store.rejected, [], 'every statement valid, with the version header and the credentials');
    // The practice's last score: the page's 5 problems (its three blocks), 3 answered.
    const last = stored.filter((s) => s.object.id === 'https://course.example/attention').at(-1);
    const right = Object.values(copy.answers).filter((r) => r.solved).length;
    assert.equal(last.verb.id, 'http://adlnet.gov/expapi/verbs/progressed');
    assert.deepEqual(last.result, { score: { scaled: right / 5, raw: right, min: 0, max: 5 }, completion: false });
    const limits = stored.filter((s) => s.object.id === 'https://course.example/attention/ideas/limits').at(-1);
    assert.equal(limits.verb.id, 'http://adlnet.gov/expapi/verbs/completed', 'the idea with all its problems answered');
    assert.deepEqual(last.actor, { objectType: 'Agent', mbox: 'mailto:ada@example.org', name: 'Ada' });
    // The browser logs each failed request it was made to fail; nothing else may appear.
    const expected = /^console error: Failed to load resource: (the server responded with a status of 503|net::ERR_EMPTY_RESPONSE|net::ERR_CONNECTION_REFUSED)/;
    assert.deepEqual(problems.filter((p) => !expected.test(p)), []);
    await tab.close();
  });
});

async function waitFor(condition, what, timeout = 10000) {
  const end = Date.now() + timeout;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
