// The xAPI side: statements POSTed to <endpoint>/statements (xAPI 1.0.3), queued in the
// Outbox until the record store takes them.
import { Outbox } from './outbox.js';
import { statementsSince } from './xapi-statements.js';

/** The statements resource of an endpoint (report-endpoint, absolute or relative to the page). */
export function statementsUrl(endpoint, base = globalThis.document?.baseURI) {
  let url;
  try {
    url = new URL(endpoint, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.search = '';
  url.hash = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/statements`;
  return url.href;
}

/** Sends one batch; resolves to the HTTP status (throws when there is no answer at all). */
export function xapiSender(url, auth) {
  return async (statements) => {
    const headers = { 'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3' };
    const authorization = auth();
    if (authorization) headers.Authorization = authorization;
    const body = JSON.stringify(statements);
    // keepalive lets a send started as the page closes finish (browsers allow 64 kB of it).
    const response = await fetch(url, { method: 'POST', headers, body, credentials: 'omit', cache: 'no-store', keepalive: body.length < 60_000 });
    return response.status;
  };
}

/**
 * The xAPI reporter: on each change of the copy, the new statements go into the outbox in
 * one write with what they cover, then out. `ctx` as statementsSince takes it.
 */
export function xapiReporter({ copy, problems, url, auth, ctx, storage }) {
  const outbox = new Outbox({ storage, key: `multiple-heads:report:xapi:${url}`, send: xapiSender(url, auth) });
  const update = () => {
    outbox.sync();
    const { statements, state } = statementsSince(outbox.state, copy, problems(), ctx);
    if (statements.length) outbox.add(statements, state);
    else outbox.state = { ...outbox.state, seen: state.seen };
    outbox.retryNow();
    outbox.flush();
  };
  return { outbox, update, close: () => outbox.close() };
}
