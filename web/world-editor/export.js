// The world as a file (no DOM): exactly the world being edited, with "$schema" and
// "formatVersion": 1 first and the fields in the order docs/WORLDS.md lists them, so an
// exported file reads like the shipped ones. Reading a file or pasted text back is here too,
// with the problems said in the author's words.
import { parseWorldText } from '../widgets/shared/world-source.js';

/** Where an exported world finds the schema when it is saved in the package's worlds/ folder. */
export const SCHEMA_PATH = '../world.schema.json';
const ORDER = ['$schema', 'formatVersion', 'title', 'language', 'description', 'about', 'sentence', 'tokens', 'query',
  'subject', 'complement', 'features', 'heads', 'mergedColour', 'mergedColourDark', 'headCounts', 'outputProjection',
  'headsNote', 'reader'];

/** The world to export: its own fields, in the format's order, "$schema" and formatVersion 1 first. */
export function exportedWorld(world) {
  const out = { $schema: typeof world.$schema === 'string' ? world.$schema : SCHEMA_PATH, formatVersion: 1 };
  for (const key of ORDER) if (!(key in out) && world[key] !== undefined) out[key] = world[key];
  for (const [key, value] of Object.entries(world)) if (!(key in out)) out[key] = value;
  return out;
}

/** The exported file's text: indented JSON, one feature per line's worth of nesting. */
export const exportText = (world) => `${JSON.stringify(exportedWorld(world), null, 2)}\n`;

/** The file name for a world: its title, as a safe file name ("the-researcher-who-wrote.json"). */
export function exportFileName(world) {
  const base = String(world.title ?? world.sentence ?? 'world').normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .toLowerCase().replace(/ß/g, 'ss').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  return `${base || 'world'}.json`;
}

/**
 * A world from an imported file's text or pasted text: { world } or { error } saying what
 * is wrong with it as a whole (not JSON, not an object). A world with wrong fields is
 * imported: the editor then shows each problem at its cell.
 */
export function readWorldText(text, what) {
  let data;
  try {
    data = parseWorldText(text, what);
  } catch (error) {
    return { error: error.message };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { error: `${what[0].toUpperCase()}${what.slice(1)} is JSON but not a world: a world is an object ({ "formatVersion": 1, "sentence": …, "tokens": […], … }), this is ${Array.isArray(data) ? 'a list' : data === null ? 'null' : `a ${typeof data}`}.` };
  }
  if (!Array.isArray(data.tokens) || !Array.isArray(data.features)) {
    return { error: `${what[0].toUpperCase()}${what.slice(1)} is not a world: it has no ${Array.isArray(data.tokens) ? '"features" list' : '"tokens" list'} (docs/WORLDS.md describes the format).` };
  }
  return { world: data };
}
