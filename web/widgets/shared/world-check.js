// Checks an author's world (lessons/multiple-heads/world.schema.json, docs/WORLDS.md)
// before anything is built from it, and says what is wrong in the author's terms: which
// field, what was found, what to write instead. No DOM, no engine: Node tests and the
// world editor use it too.
//
// Two layers of rules. The schema's (types, required fields, number ranges, name patterns)
// are restated here so that a widget needs no schema validator in the page; a test holds
// this file and the schema to the same verdicts on 1,000 malformed worlds. The rest a schema
// cannot say: a feature has one number per token, a head's rows are d_k = d_model / heads
// wide, names point at features and heads that exist, head counts divide the heads.
//
// checkWorld never throws: whatever it is given (a string, null, a cyclic object), it
// returns a list of problems, empty when the world is good.

import { WorldError } from './world-error.js';
import { buildWorld, meaningFeatureNames } from './world.js';

export const WORLD_FORMAT_VERSION = 1;
/** Every number in a world lies in [-NUMBER_LIMIT, NUMBER_LIMIT]: scores stay far from float overflow. */
export const NUMBER_LIMIT = 1000;
const MAX_TOKENS = 64;
const MAX_FEATURES = 64;
const MAX_HEADS = 16;
const MAX_PROBLEMS = 20;
const TOP_LEVEL = ['$schema', 'formatVersion', 'title', 'language', 'description', 'about', 'sentence', 'tokens', 'query',
  'subject', 'complement', 'features', 'heads', 'mergedColour', 'mergedColourDark', 'headCounts', 'outputProjection',
  'headsNote', 'reader'];
const HEAD_FIELDS = ['id', 'name', 'colour', 'colourDark', 'question', 'keyColumns', 'query', 'key', 'value'];
const COLOUR = /^#[0-9A-Fa-f]{6}$/;
const HEAD_ID = /^[a-z][a-z0-9-]{0,30}$/;
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export { WorldError };

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const quote = (text) => `“${String(text).slice(0, 40)}”`;
const describe = (value) => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'string') return `the text ${quote(value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `${typeof value}`;
};

// Collects problems; stops listing after MAX_PROBLEMS (the first ones are what to fix first).
class Problems {
  list = [];
  add(path, message) {
    if (this.list.length < MAX_PROBLEMS) this.list.push({ path, message });
    return false;
  }
  get full() {
    return this.list.length >= MAX_PROBLEMS;
  }
  text(path, value, { required = true, max = 4000, min = 1 } = {}) {
    if (value === undefined) return required ? this.add(path, 'missing: write it as text') : true;
    if (typeof value !== 'string') return this.add(path, `expected text, found ${describe(value)}`);
    if (value.length < min) return this.add(path, 'is empty: write some text');
    if (value.length > max) return this.add(path, `is ${value.length} characters long: at most ${max}`);
    return true;
  }
  numbers(path, value, count, fix) {
    if (!Array.isArray(value)) return this.add(path, `expected a list of ${count ?? ''} numbers, found ${describe(value)}`.replace('  ', ' '));
    const bad = value.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > NUMBER_LIMIT);
    if (bad >= 0) return this.add(`${path}[${bad}]`, `expected a number from −${NUMBER_LIMIT} to ${NUMBER_LIMIT}, found ${describe(value[bad])}`);
    if (count !== undefined && value.length !== count) return this.add(path, `expected ${count} numbers, found ${value.length}: ${fix}`);
    return true;
  }
  unknownFields(path, object, allowed) {
    for (const key of Object.keys(object)) {
      if (!allowed.includes(key)) this.add(path ? `${path}.${key}` : key, `is not a field of a world${path ? ` ${path.replace(/\[\d+\]$/, '')} entry` : ''}: remove it, or check its spelling (${allowed.filter((a) => a !== '$schema').join(', ')})`);
    }
  }
}

/** The problems of a world (an empty list when it is good). Never throws. */
export function checkWorld(data) {
  const p = new Problems();
  try {
    checkTopLevel(p, data);
  } catch (error) {
    // Only a hostile object gets here (a getter that throws, a proxy): said, not thrown.
    p.add('world', `could not be read (${error?.message ?? error}): give plain JSON`);
  }
  return p.list;
}

/** The world if it is good; else throws a WorldError listing its problems. */
export function requireWorld(data) {
  const problems = checkWorld(data);
  if (problems.length) throw new WorldError(problems);
  return data;
}

/** An author's world checked (a WorldError naming each problem) and built (world.js). */
export function buildCheckedWorld(data) {
  return buildWorld(requireWorld(data));
}

function checkTopLevel(p, data) {
  if (!isObject(data)) return p.add('world', `expected an object ({ "formatVersion": 1, "sentence": … }), found ${describe(data)}`);
  p.unknownFields('', data, TOP_LEVEL);
  if (data.formatVersion !== WORLD_FORMAT_VERSION) {
    p.add('formatVersion', data.formatVersion === undefined ? 'missing: write "formatVersion": 1' : `is ${describe(data.formatVersion)}; this version of the widgets reads format 1`);
  }
  p.text('$schema', data.$schema, { required: false, min: 0 });
  p.text('title', data.title, { required: false, max: 120 });
  if (p.text('language', data.language, { required: false, max: 35 }) && data.language !== undefined && !LANGUAGE.test(data.language)) {
    p.add('language', `${quote(data.language)} is not a language tag: write one such as "en" or "de"`);
  }
  for (const field of ['description', 'about', 'headsNote']) p.text(field, data[field], { required: false, min: 0 });
  p.text('sentence', data.sentence, { max: 500 });
  const tokens = checkTokens(p, data.tokens);
  const features = checkFeatures(p, data.features, tokens);
  const heads = checkHeads(p, data.heads, features);
  if (tokens) {
    for (const field of ['query', ...(data.reader !== undefined ? ['subject', 'complement'] : [])]) checkTokenName(p, field, data[field], tokens);
    for (const field of ['subject', 'complement']) if (data.reader === undefined && data[field] !== undefined) checkTokenName(p, field, data[field], tokens);
  }
  checkColours(p, data);
  checkHeadCounts(p, data.headCounts, heads);
  if (data.outputProjection !== undefined && data.outputProjection !== 'identity') {
    p.add('outputProjection', `is ${describe(data.outputProjection)}: only "identity" is supported (leave it out for the same)`);
  }
  if (data.reader !== undefined) checkReader(p, data.reader, features, heads);
  return true;
}

function checkTokens(p, tokens) {
  if (!Array.isArray(tokens)) return p.add('tokens', `expected a list of the sentence's tokens, found ${describe(tokens)}`);
  if (tokens.length < 2 || tokens.length > MAX_TOKENS) return p.add('tokens', `has ${tokens.length} tokens: give 2 to ${MAX_TOKENS}`);
  const bad = tokens.findIndex((t) => typeof t !== 'string' || t.length === 0 || t.length > 40);
  if (bad >= 0) return p.add(`tokens[${bad}]`, `expected a word of 1 to 40 characters, found ${describe(tokens[bad])}`);
  return tokens;
}

function checkTokenName(p, field, value, tokens) {
  if (!p.text(field, value, { max: 40 })) return;
  const count = tokens.filter((t) => t === value).length;
  if (count === 0) p.add(field, `${quote(value)} is not one of the tokens: write one of ${tokens.map(quote).join(', ')}`);
  else if (count > 1) p.add(field, `${quote(value)} occurs ${count} times in tokens: it must name one token (make the tokens differ, e.g. by case)`);
}

function checkFeatures(p, features, tokens) {
  if (!Array.isArray(features)) return p.add('features', `expected a list of features ({ "name": …, "values": […] }), found ${describe(features)}`);
  if (features.length < 1 || features.length > MAX_FEATURES) return p.add('features', `has ${features.length} features: give 1 to ${MAX_FEATURES}`);
  const names = [];
  features.forEach((feature, f) => {
    const path = `features[${f}]`;
    if (!isObject(feature)) return p.add(path, `expected { "name": …, "values": […] }, found ${describe(feature)}`);
    p.unknownFields(path, feature, ['name', 'about', 'values']);
    if (p.text(`${path}.name`, feature.name, { max: 40 })) {
      if (names.includes(feature.name)) p.add(`${path}.name`, `${quote(feature.name)} names two features: give each feature its own name`);
      names.push(feature.name);
    }
    p.text(`${path}.about`, feature.about, { required: false, min: 0, max: 1000 });
    p.numbers(`${path}.values`, feature.values, tokens ? tokens.length : undefined, 'one number per token');
    return true;
  });
  return names.length === features.length ? names : null;
}

function checkHeads(p, heads, featureNames) {
  if (!Array.isArray(heads)) return p.add('heads', `expected a list of heads, found ${describe(heads)}`);
  if (heads.length < 1 || heads.length > MAX_HEADS) return p.add('heads', `has ${heads.length} heads: give 1 to ${MAX_HEADS}`);
  const dModel = featureNames?.length;
  if (dModel !== undefined && dModel % heads.length !== 0) {
    p.add('heads', `${heads.length} heads do not divide the ${dModel} features (d_model): each head is d_model / heads columns wide, so use a number of heads that divides ${dModel}, or add features`);
  }
  const dK = dModel !== undefined && dModel % heads.length === 0 ? dModel / heads.length : undefined;
  const ids = [];
  heads.forEach((head, i) => {
    const path = `heads[${i}]`;
    if (!isObject(head)) return p.add(path, `expected a head ({ "id": …, "name": …, "query": {…}, … }), found ${describe(head)}`);
    p.unknownFields(path, head, HEAD_FIELDS);
    if (p.text(`${path}.id`, head.id, { max: 31 })) {
      if (!HEAD_ID.test(head.id)) p.add(`${path}.id`, `${quote(head.id)}: use lower-case letters, digits and hyphens, starting with a letter (it names CSS properties)`);
      else if (ids.includes(head.id)) p.add(`${path}.id`, `${quote(head.id)} is the id of two heads: give each its own`);
      ids.push(head.id);
    }
    p.text(`${path}.name`, head.name, { max: 60 });
    p.text(`${path}.question`, head.question, { required: false, min: 0, max: 300 });
    for (const field of ['colour', 'colourDark']) checkColour(p, `${path}.${field}`, head[field], true);
    if (head.keyColumns !== undefined && (!Array.isArray(head.keyColumns) || !head.keyColumns.every((c) => typeof c === 'string' && c.length <= 40))) {
      p.add(`${path}.keyColumns`, 'expected a list of short labels, one per key column');
    }
    for (const kind of ['query', 'key', 'value']) checkRows(p, `${path}.${kind}`, head[kind], featureNames, dK);
    return true;
  });
  return ids.length === heads.length ? { ids, count: heads.length } : { ids: null, count: heads.length };
}

function checkRows(p, path, rows, featureNames, dK) {
  if (rows === undefined) return p.add(path, 'missing: give the rows of this block by feature name ({} for all zeros)');
  if (!isObject(rows)) return p.add(path, `expected rows by feature name ({ "verb": [1, 0, 0] }), found ${describe(rows)}`);
  for (const [name, row] of Object.entries(rows)) {
    const rowPath = `${path}["${name}"]`;
    if (featureNames && !featureNames.includes(name)) p.add(rowPath, `${quote(name)} is not one of the features: write one of ${featureNames.map(quote).join(', ')}`);
    p.numbers(rowPath, row, dK, `a head's rows are d_k = d_model / heads = ${dK} numbers wide`);
    if (p.full) return false;
  }
  return true;
}

function checkColour(p, path, value, required) {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || !COLOUR.test(value)) p.add(path, `expected a colour written as # and six hex digits, found ${describe(value)}`);
}

function checkColours(p, data) {
  for (const field of ['mergedColour', 'mergedColourDark']) checkColour(p, field, data[field], false);
}

function checkHeadCounts(p, counts, heads) {
  if (!Array.isArray(counts) || counts.length < 1 || counts.length > 8) return p.add('headCounts', `expected a list of 1 to 8 head counts such as [1, 2, 4], found ${describe(counts)}`);
  counts.forEach((h, k) => {
    if (!Number.isInteger(h) || h < 1 || h > MAX_HEADS) p.add(`headCounts[${k}]`, `expected a whole number from 1 to ${MAX_HEADS}, found ${describe(h)}`);
    else if (counts.indexOf(h) !== k) p.add(`headCounts[${k}]`, `${h} is listed twice`);
    else if (heads && heads.count % h !== 0) p.add(`headCounts[${k}]`, `${h} does not divide the ${heads.count} heads: merged heads are runs of consecutive heads, so use a divisor of ${heads.count}`);
  });
  return true;
}

function checkReader(p, reader, featureNames, heads) {
  if (!isObject(reader)) return p.add('reader', `expected { "subjects": […], "complements": […], "subjectHead": …, "complementHead": … }, found ${describe(reader)}`);
  p.unknownFields('reader', reader, ['about', 'meaningFeatures', 'subjects', 'complements', 'subjectHead', 'complementHead']);
  p.text('reader.about', reader.about, { required: false, min: 0 });
  const meanings = checkMeaningFeatures(p, reader.meaningFeatures, featureNames);
  for (const field of ['subjects', 'complements']) checkCandidates(p, `reader.${field}`, reader[field], meanings);
  for (const field of ['subjectHead', 'complementHead']) {
    if (!p.text(`reader.${field}`, reader[field], { max: 31 }) || !heads?.ids) continue;
    if (!heads.ids.includes(reader[field])) p.add(`reader.${field}`, `${quote(reader[field])} is not the id of a head: write one of ${heads.ids.map(quote).join(', ')}`);
  }
  return true;
}

function checkMeaningFeatures(p, given, featureNames) {
  if (!featureNames) return null;
  if (given === undefined) {
    const found = featureNames.filter((name) => name.startsWith('meaning'));
    if (found.length === 0) return p.add('reader.meaningFeatures', 'missing: no feature is named "meaning …", so list the features that hold a word\'s meaning') && null;
    return found;
  }
  if (!Array.isArray(given) || given.length === 0) return p.add('reader.meaningFeatures', `expected a list of feature names, found ${describe(given)}`) && null;
  const bad = given.findIndex((name) => !featureNames.includes(name));
  if (bad >= 0) return p.add(`reader.meaningFeatures[${bad}]`, `${quote(given[bad])} is not one of the features`) && null;
  return given;
}

function checkCandidates(p, path, list, meanings) {
  if (!Array.isArray(list) || list.length < 2 || list.length > 16) return p.add(path, `expected a list of 2 to 16 candidates ({ "word": …, "meaning": […] }), found ${describe(list)}`);
  list.forEach((candidate, k) => {
    const at = `${path}[${k}]`;
    if (!isObject(candidate)) return p.add(at, `expected { "word": …, "meaning": […] }, found ${describe(candidate)}`);
    p.unknownFields(at, candidate, ['word', 'meaning']);
    p.text(`${at}.word`, candidate.word, { max: 40 });
    p.numbers(`${at}.meaning`, candidate.meaning, meanings ? meanings.length : undefined, `one number per meaning feature (${(meanings ?? []).map(quote).join(', ')})`);
    return true;
  });
  return true;
}
