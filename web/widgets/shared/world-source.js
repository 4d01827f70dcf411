// Where a widget's world comes from: the `world` attribute (docs/WORLDS.md), or the
// lesson's own world without one. The attribute is either the world's JSON itself (text
// that starts with "{") or a URL to a .json file, resolved against the page's address.
//
//   worldForAttribute(value)     the built world (world.js), or throws a WorldLoadError or a
//                                WorldError (world-check.js) saying what to fix
//   checkWorldWithCore(engine, w) runs the world through the core once per head count, so
//                                that a world the core refuses is said at load, by field
//
// A URL is fetched once per page: several widgets on one page that name the same world
// share one download and one check.
import { THE_WORLD, createWorldModel } from './world.js';
import { WorldError } from './world-error.js';

// The checker (world-check.js) is loaded only when a widget is given a world.
const checkedWorld = async (data) => (await import('./world-check.js')).buildCheckedWorld(data);

/** Larger files are refused before parsing: a world is a few kilobytes. */
export const MAX_WORLD_BYTES = 1_000_000;

/** A world that could not be read at all (not JSON, not found, too large). */
export class WorldLoadError extends Error {
  constructor(message) {
    super(message);
    this.name = 'WorldLoadError';
  }
}

const fetched = new Map();

/** The world the attribute names (null or empty: the lesson's world). */
export async function worldForAttribute(value, baseURL = globalThis.document?.baseURI) {
  const text = value?.trim() ?? '';
  if (text === '') return THE_WORLD;
  if (text.startsWith('{')) return checkedWorld(parseWorldText(text, 'the world attribute'));
  let url;
  try {
    url = new URL(text, baseURL);
  } catch {
    throw new WorldLoadError(`The world attribute is neither JSON (it would start with "{") nor a URL: “${text.slice(0, 60)}”.`);
  }
  if (!['http:', 'https:', 'file:', 'blob:', 'data:'].includes(url.protocol)) {
    throw new WorldLoadError(`The world attribute's URL uses ${url.protocol}, which a world cannot be loaded from: give an http(s) address or a path such as worlds/my-world.json.`);
  }
  const key = url.href;
  if (!fetched.has(key)) fetched.set(key, fetchWorld(url));
  return fetched.get(key);
}

async function fetchWorld(url) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    // CORS, connect-src of a Content-Security-Policy, an offline page.
    throw new WorldLoadError(`The world at ${url.href} could not be fetched (${error.message}). From another site it needs CORS headers; under a Content-Security-Policy, connect-src must allow it.`);
  }
  if (!response.ok) throw new WorldLoadError(`The world at ${url.href} could not be loaded: the server answered ${response.status} ${response.statusText}.`.replace(' .', '.'));
  const size = Number(response.headers.get('content-length'));
  if (size > MAX_WORLD_BYTES) throw new WorldLoadError(`The world at ${url.href} is ${size} bytes: a world is at most ${MAX_WORLD_BYTES} bytes.`);
  const text = await response.text();
  if (text.length > MAX_WORLD_BYTES) throw new WorldLoadError(`The world at ${url.href} is ${text.length} characters: a world is at most ${MAX_WORLD_BYTES}.`);
  return checkedWorld(parseWorldText(text, `the world at ${url.href}`));
}

/** JSON.parse with a message that says where the text stops being JSON. */
export function parseWorldText(text, what) {
  if (text.length > MAX_WORLD_BYTES) throw new WorldLoadError(`${capitalise(what)} is ${text.length} characters: a world is at most ${MAX_WORLD_BYTES}.`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec(error.message);
    const where = at ? `, near “${text.slice(Math.max(0, Number(at[1]) - 20), Number(at[1]) + 20).replace(/\s+/g, ' ')}”` : '';
    throw new WorldLoadError(`${capitalise(what)} is not valid JSON (${error.message})${where}.`);
  }
}

const capitalise = (text) => text[0].toUpperCase() + text.slice(1);

/**
 * Runs the world's X through the core with every head count it offers; a refusal or an
 * output that is not finite is a WorldError that names the world's fields, not the core's
 * matrices. The lesson's world is not rechecked (its tests run it).
 */
export function checkWorldWithCore(engine, w) {
  if (w === THE_WORLD) return;
  for (const h of w.headCounts) {
    let model;
    try {
      model = createWorldModel(engine, w, h);
      const out = model.forward(w.x, { perHeadContributions: false }).output;
      if (!out.data.every(Number.isFinite)) throw new Error('the layer\'s output is not finite');
    } catch (error) {
      throw new WorldError([{ path: `headCounts (h = ${h})`, message: `the core cannot run this world with ${h} heads: ${error.message}` }]);
    } finally {
      model?.delete();
    }
  }
}
