// Where each problem of a world is in the editor (no DOM). checkWorld (world-check.js) names
// a problem by its path in the world ("features[3].values[4]", "heads[1].query[\"verb\"][2]");
// the editor shows it at the control that holds that value: a cell of the table, a token,
// a field, or, for what has no control of its own (the heads, a missing field), the nearest
// section. Each target is a key the views give their controls (data-target) and words that
// name the control, which start the problem's message ("Value of feature “verb” for token 4
// “wrote”: expected a number…").

const FEATURE_PART = /^features\[(\d+)\](?:\.(name|about|values)(?:\[(\d+)\])?)?/;
const TOKEN = /^tokens\[(\d+)\]$/;
const FIELDS = { title: 'Title', language: 'Language', description: 'Description', sentence: 'Sentence' };
const ROLE_LABELS = { query: 'Query token', subject: 'Subject token', complement: 'Complement token' };
const SECTIONS = { heads: 'Heads (JSON)', headCounts: 'Head counts (JSON)', reader: 'Reader (JSON)', other: 'Other fields (JSON)' };

const quote = (text) => `“${text}”`;

/** Words for token t (0-based) as the table names it: `token 4 “wrote”`. */
export function tokenWords(world, t) {
  const token = Array.isArray(world?.tokens) ? world.tokens[t] : undefined;
  return typeof token === 'string' && token !== '' ? `token ${t + 1} ${quote(token)}` : `token ${t + 1}`;
}

/** Words for feature f (0-based): `feature “verb”`, or `feature 3` while it has no name. */
export function featureWords(world, f) {
  const name = Array.isArray(world?.features) ? world.features[f]?.name : undefined;
  return typeof name === 'string' && name !== '' ? `feature ${quote(name)}` : `feature ${f + 1}`;
}

/** The accessible name of a value cell: "Value of feature “verb” for token 4 “wrote”". */
export const cellLabel = (world, f, t) => `Value of ${featureWords(world, f)} for ${tokenWords(world, t)}`;

/**
 * The control a problem's path points at: { key, label, section }. key: `value:f:t`,
 * `name:f`, `about:f`, `token:t`, `field:<name>`, `role:<name>`, `json:<section>`, or
 * `section:<id>` when only a section fits; section: the section that holds it.
 */
export function targetOf(path, world) {
  const feature = FEATURE_PART.exec(path);
  if (feature) {
    const f = Number(feature[1]);
    if (feature[2] === 'values' && feature[3] !== undefined) {
      return { key: `value:${f}:${feature[3]}`, label: cellLabel(world, f, Number(feature[3])), section: 'table' };
    }
    if (feature[2] === 'about') return { key: `about:${f}`, label: `About ${featureWords(world, f)}`, section: 'table' };
    // The name, the row of values as a whole (its length), or a field that is not a feature's.
    return { key: `name:${f}`, label: feature[2] === 'values' ? `Values of ${featureWords(world, f)}` : `Name of feature ${f + 1}`, section: 'table' };
  }
  const token = TOKEN.exec(path);
  if (token) return { key: `token:${token[1]}`, label: `Token ${Number(token[1]) + 1}`, section: 'table' };
  if (path === 'tokens' || path === 'features') return { key: 'section:table', label: path === 'tokens' ? 'Tokens' : 'Features', section: 'table' };
  if (Object.hasOwn(FIELDS, path)) return { key: `field:${path}`, label: FIELDS[path], section: 'about' };
  if (Object.hasOwn(ROLE_LABELS, path)) return { key: `role:${path}`, label: ROLE_LABELS[path], section: 'roles' };
  const section = /^(heads|headCounts|reader)\b/.exec(path)?.[1];
  if (section) return { key: `json:${section}`, label: SECTIONS[section], section: 'advanced' };
  if (path === 'world') return { key: 'section:start', label: 'The world', section: 'start' };
  // Colours, outputProjection, headsNote, about, formatVersion and fields a world has not.
  return { key: 'json:other', label: SECTIONS.other, section: 'advanced' };
}

/**
 * The problems, each with its target and the message as the editor shows it: the control's
 * name, then what checkWorld says, then the path where it adds something (a head's row).
 */
export function locateProblems(problems, world) {
  return problems.map((problem) => {
    const target = targetOf(problem.path, world);
    const where = target.key.startsWith('json:') || target.key.startsWith('section:') ? ` (${problem.path})` : '';
    return { ...problem, ...target, text: `${target.label}${where}: ${problem.message}` };
  });
}

/** Problems grouped by target key (a control can have several). */
export function problemsByTarget(located) {
  const map = new Map();
  for (const problem of located) map.set(problem.key, [...(map.get(problem.key) ?? []), problem]);
  return map;
}
