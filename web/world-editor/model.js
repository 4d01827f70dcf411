// The world editor's document, and every edit an author makes to it (no DOM: Node tests
// drive it, tests/node/world-editor-model.test.mjs). A document is
//
//   { world, anchors: { query, subject, complement }, texts: { heads, headCounts, reader, other } }
//
// `world` is the world as it will be exported, even when it is wrong: a cell holding "abc"
// holds the text "abc", so that checkWorld (world-check.js) names the cell and nothing the
// author typed is lost. `anchors` are the token indices that query, subject and complement
// name: the roles follow their token when it is renamed or moves, which a name alone could
// not do while two tokens are briefly spelled alike. `texts` keeps the advanced sections'
// JSON while it does not parse.
//
// applyEdit(doc, edit) returns a new document and never changes the old one (the undo
// history keeps old ones). An edit the model refuses throws an EditError whose message says
// why, in the author's terms; everything else is allowed and left to checkWorld to judge.
import { alignTokens, splitSentence } from './sentence.js';
import { fitHeadRows } from './heads-fit.js';

export const ROLES = ['query', 'subject', 'complement'];
/** The top-level fields the editor has its own controls for; the rest are "other fields". */
export const OWN_FIELDS = ['$schema', 'formatVersion', 'title', 'language', 'description', 'sentence', 'tokens',
  'query', 'subject', 'complement', 'features', 'heads', 'headCounts', 'reader'];
export const JSON_SECTIONS = ['heads', 'headCounts', 'reader', 'other'];
const TEXT_FIELDS = ['title', 'language', 'description', 'sentence'];
const MAX_TOKENS = 64;
const MAX_FEATURES = 64;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** An edit the model will not make; the message says why. */
export class EditError extends Error {
  constructor(message) {
    super(message);
    this.name = 'EditError';
  }
}

const clone = (value) => (value === undefined ? undefined : structuredClone(value));
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const quote = (text) => `“${text}”`;

/** A new document for a world (copied: the caller's object is never changed). */
export function createDocument(world) {
  if (!isObject(world)) throw new EditError('A world is a JSON object ({ "formatVersion": 1, "sentence": … }).');
  const copy = clone(world);
  return { world: copy, anchors: anchorsOf(copy), texts: {} };
}

// Each role's token index, where its name picks out exactly one token.
function anchorsOf(world) {
  const tokens = Array.isArray(world.tokens) ? world.tokens : [];
  const anchors = {};
  for (const role of ROLES) {
    const at = tokens.indexOf(world[role]);
    anchors[role] = at >= 0 && tokens.lastIndexOf(world[role]) === at ? at : null;
  }
  return anchors;
}

/** A number when the text is one in plain decimal notation ("−0.5" too), else the text as typed. */
export function cellValue(text) {
  const trimmed = String(text).trim().replace(/\u2212/g, '-');
  if (!NUMBER.test(trimmed)) return String(text);
  const value = Number(trimmed);
  return Object.is(value, -0) ? 0 : value;
}

/** A cell's value as the table shows it (numbers with a hyphen minus, so they type back). */
export const cellText = (value) => (typeof value === 'number' ? String(value) : String(value ?? ''));

/** The edit applied: a new document. Throws an EditError for an edit the model refuses. */
export function applyEdit(doc, edit) {
  const handler = EDITS[edit?.type];
  if (!handler) throw new EditError(`Unknown edit ${quote(edit?.type)}.`);
  const next = { world: clone(doc.world), anchors: { ...doc.anchors }, texts: { ...doc.texts } };
  handler(next, edit);
  return next;
}

const EDITS = {
  field: setField,
  role: setRole,
  renameToken,
  insertToken,
  removeToken,
  tokensFromSentence,
  value: setValue,
  renameFeature,
  about: setAbout,
  insertFeature,
  removeFeature,
  json: setJson,
  fitHeads,
};

function fitHeads(doc) {
  if (!fitHeadRows(doc.world)) throw new EditError('The heads\' rows are already d_k wide, or the heads do not divide the features: there is nothing to fit.');
  delete doc.texts.heads;
}

function setField({ world }, { field, value }) {
  if (!TEXT_FIELDS.includes(field)) throw new EditError(`${quote(field)} is not a text field of a world.`);
  // An optional field left empty is left out, as a world without it would be written.
  if (value === '' && field !== 'sentence') delete world[field];
  else world[field] = value;
}

function setRole(doc, { role, index }) {
  if (!ROLES.includes(role)) throw new EditError(`${quote(role)} is not a role of a token.`);
  if (index === null) {
    if (role === 'query') throw new EditError('A world needs a query token: choose one.');
    delete doc.world[role];
    doc.anchors[role] = null;
    return;
  }
  const tokens = tokenList(doc.world);
  if (!Number.isInteger(index) || index < 0 || index >= tokens.length) throw new EditError(`There is no token ${index + 1}.`);
  doc.world[role] = tokens[index];
  doc.anchors[role] = index;
}

function tokenList(world) {
  if (!Array.isArray(world.tokens)) world.tokens = [];
  return world.tokens;
}

// The roles anchored at a token take its new text.
function followAnchors(doc) {
  const tokens = tokenList(doc.world);
  for (const role of ROLES) if (doc.anchors[role] !== null && doc.anchors[role] !== undefined) doc.world[role] = tokens[doc.anchors[role]];
}

function renameToken(doc, { index, text }) {
  const tokens = tokenList(doc.world);
  if (!(index >= 0 && index < tokens.length)) throw new EditError(`There is no token ${index + 1}.`);
  tokens[index] = text;
  followAnchors(doc);
}

// The sentence's words become the tokens; a token still there keeps its numbers in every
// feature and its role (sentence.js aligns them), a new word starts at 0.
function tokensFromSentence(doc) {
  const words = splitSentence(doc.world.sentence);
  if (words.length < 2 || words.length > MAX_TOKENS) {
    throw new EditError(`The sentence has ${words.length} ${words.length === 1 ? 'word' : 'words and marks'}: a world has 2 to ${MAX_TOKENS} tokens.`);
  }
  const from = alignTokens(tokenList(doc.world), words);
  doc.world.tokens = words;
  eachValueList(doc.world, (values) => {
    const old = [...values];
    values.splice(0, values.length, ...from.map((i) => (i >= 0 && i < old.length ? old[i] : 0)));
  });
  for (const role of ROLES) {
    if (doc.anchors[role] === null || doc.anchors[role] === undefined) continue;
    const at = from.indexOf(doc.anchors[role]);
    doc.anchors[role] = at >= 0 ? at : null;
  }
  followAnchors(doc);
}

function eachValueList(world, fn) {
  if (!Array.isArray(world.features)) return;
  for (const feature of world.features) if (isObject(feature) && Array.isArray(feature.values)) fn(feature.values);
}

function insertToken(doc, { index, text }) {
  const tokens = tokenList(doc.world);
  if (tokens.length >= MAX_TOKENS) throw new EditError(`A world has at most ${MAX_TOKENS} tokens.`);
  const at = Math.max(0, Math.min(tokens.length, index ?? tokens.length));
  tokens.splice(at, 0, text);
  // A new token's features start at 0 in every row, so every row keeps one number per token.
  eachValueList(doc.world, (values) => values.splice(at, 0, 0));
  for (const role of ROLES) if (doc.anchors[role] !== null && doc.anchors[role] >= at) doc.anchors[role] += 1;
}

function removeToken(doc, { index }) {
  const tokens = tokenList(doc.world);
  if (!(index >= 0 && index < tokens.length)) throw new EditError(`There is no token ${index + 1}.`);
  if (tokens.length <= 2) throw new EditError('A world has at least 2 tokens: add one before removing this one.');
  tokens.splice(index, 1);
  eachValueList(doc.world, (values) => values.splice(index, 1));
  // A role whose token is gone keeps its old name, which checkWorld then says is no token.
  for (const role of ROLES) {
    if (doc.anchors[role] === index) doc.anchors[role] = null;
    else if (doc.anchors[role] !== null && doc.anchors[role] > index) doc.anchors[role] -= 1;
  }
}

function featureAt(world, index) {
  const feature = Array.isArray(world.features) ? world.features[index] : undefined;
  if (!isObject(feature)) throw new EditError(`There is no feature ${index + 1}.`);
  return feature;
}

function setValue({ world }, { feature, token, text }) {
  const row = featureAt(world, feature);
  if (!Array.isArray(row.values)) row.values = [];
  if (!(token >= 0 && token < tokenList(world).length)) throw new EditError(`There is no token ${token + 1}.`);
  while (row.values.length <= token) row.values.push(0);
  row.values[token] = cellValue(text);
}

function setAbout({ world }, { feature, text }) {
  const row = featureAt(world, feature);
  if (text === '') delete row.about;
  else row.about = text;
}

const featureNames = (world) => (Array.isArray(world.features) ? world.features.map((f) => (isObject(f) ? f.name : undefined)) : []);
const HEAD_BLOCKS = ['query', 'key', 'value'];

// The reader's meaning features as a list, if the world has a reader.
function meaningList(world) {
  if (!isObject(world.reader)) return null;
  if (Array.isArray(world.reader.meaningFeatures)) return world.reader.meaningFeatures;
  return featureNames(world).filter((name) => typeof name === 'string' && name.startsWith('meaning'));
}

function renameFeature(doc, { feature, name }) {
  const { world } = doc;
  const row = featureAt(world, feature);
  const names = featureNames(world);
  const other = names.findIndex((n, i) => i !== feature && n === name);
  // Refused, not flagged: the heads' rows are filed by feature name, and two features of
  // one name would leave no way to tell whose rows are whose.
  if (other >= 0) throw new EditError(`${quote(name)} is already the name of feature ${other + 1}: give each feature its own name.`);
  const old = row.name;
  const meanings = meaningList(world);
  row.name = name;
  if (names.filter((n) => n === old).length !== 1) return;
  renameInHeads(world, old, name);
  // The reader keeps the same meaning features: a list that was implied by "meaning …"
  // names is written out when the new name would change what it implies.
  if (meanings) {
    const kept = meanings.map((n) => (n === old ? name : n));
    const implied = meaningList(world);
    if (Array.isArray(world.reader.meaningFeatures) || kept.join('\n') !== implied.join('\n')) world.reader.meaningFeatures = kept;
  }
}

// Renames a feature's rows in every head (keeping the rows' order) and its key-column labels.
function renameInHeads(world, old, name) {
  if (!Array.isArray(world.heads)) return;
  for (const head of world.heads) {
    if (!isObject(head)) continue;
    for (const block of HEAD_BLOCKS) {
      if (!isObject(head[block]) || !Object.hasOwn(head[block], old)) continue;
      head[block] = Object.fromEntries(Object.entries(head[block]).map(([key, row]) => [key === old ? name : key, row]));
    }
    if (Array.isArray(head.keyColumns)) head.keyColumns = head.keyColumns.map((label) => (label === old ? name : label));
  }
}

/** A name no feature has yet: "feature 13", "feature 14"… */
export function freshFeatureName(world) {
  const names = new Set(featureNames(world));
  let n = names.size + 1;
  while (names.has(`feature ${n}`)) n += 1;
  return `feature ${n}`;
}

function insertFeature(doc, { index, name }) {
  const { world } = doc;
  if (!Array.isArray(world.features)) world.features = [];
  if (world.features.length >= MAX_FEATURES) throw new EditError(`A world has at most ${MAX_FEATURES} features.`);
  const chosen = name ?? freshFeatureName(world);
  if (featureNames(world).includes(chosen)) throw new EditError(`${quote(chosen)} is already the name of a feature: give each feature its own name.`);
  const meanings = meaningList(world);
  const at = Math.max(0, Math.min(world.features.length, index ?? world.features.length));
  world.features.splice(at, 0, { name: chosen, values: tokenList(world).map(() => 0) });
  // A new "meaning …" feature would silently join an implied meaning list: keep the old list.
  if (meanings && !Array.isArray(world.reader.meaningFeatures) && meaningList(world).length !== meanings.length) {
    world.reader.meaningFeatures = meanings;
  }
}

function removeFeature(doc, { index }) {
  const { world } = doc;
  const row = featureAt(world, index);
  if (world.features.length <= 1) throw new EditError('A world has at least 1 feature: add one before removing this one.');
  const names = featureNames(world);
  const meanings = meaningList(world);
  world.features.splice(index, 1);
  if (names.filter((n) => n === row.name).length !== 1) return;
  // Its rows leave every head, and its coordinate leaves every reader candidate's meaning.
  if (Array.isArray(world.heads)) {
    for (const head of world.heads) {
      for (const block of HEAD_BLOCKS) if (isObject(head?.[block])) delete head[block][row.name];
    }
  }
  const m = meanings ? meanings.indexOf(row.name) : -1;
  if (m < 0) return;
  for (const side of ['subjects', 'complements']) {
    const list = world.reader[side];
    if (Array.isArray(list)) for (const candidate of list) if (Array.isArray(candidate?.meaning)) candidate.meaning.splice(m, 1);
  }
  if (Array.isArray(world.reader.meaningFeatures)) world.reader.meaningFeatures.splice(m, 1);
}

/** The fields shown as "other fields" (everything without a control of its own). */
export function otherFields(world) {
  return Object.fromEntries(Object.entries(world).filter(([key]) => !OWN_FIELDS.includes(key)));
}

/** A JSON section's value in the world (undefined when absent). */
export function sectionValue(world, section) {
  return section === 'other' ? otherFields(world) : world[section];
}

function setJson(doc, { section, text }) {
  if (!JSON_SECTIONS.includes(section)) throw new EditError(`${quote(section)} is not a section of the editor.`);
  const { world } = doc;
  if (section === 'reader' && text.trim() === '') {
    delete world.reader;
    delete doc.texts.reader;
    return;
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    doc.texts[section] = { text, error: `is not JSON yet (${error.message}): the world keeps the last ${section === 'other' ? 'fields' : section} that were` };
    return;
  }
  if (section === 'other') {
    if (!isObject(value)) {
      doc.texts.other = { text, error: 'expected an object of fields ({ "headsNote": … }): the world keeps the last fields that were' };
      return;
    }
    const own = OWN_FIELDS.filter((key) => Object.hasOwn(value, key));
    if (own.length) {
      doc.texts.other = { text, error: `${own.map(quote).join(', ')} ${own.length > 1 ? 'have' : 'has'} a control of ${own.length > 1 ? 'their' : 'its'} own above: remove ${own.length > 1 ? 'them' : 'it'} here` };
      return;
    }
    for (const key of Object.keys(otherFields(world))) delete world[key];
    Object.assign(world, value);
  } else {
    world[section] = value;
  }
  delete doc.texts[section];
}
