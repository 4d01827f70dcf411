// The world editor's pure parts (web/world-editor/): every edit keeps the world's lists
// consistent (tokens and each feature's values, features and the heads' rows, the roles and
// their tokens, the reader's meanings), refuses what would lose the link between them, and
// leaves everything else to checkWorld, whose paths land on the right controls. The draft,
// the undo history and the export are checked too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EditError, applyEdit, cellValue, createDocument } from '../../web/world-editor/model.js';
import { cellLabel, locateProblems, targetOf } from '../../web/world-editor/problems.js';
import { History } from '../../web/world-editor/history.js';
import { DRAFT_KEY, loadDraft, saveDraft } from '../../web/world-editor/draft.js';
import { exportFileName, exportText, exportedWorld, readWorldText } from '../../web/world-editor/export.js';
import { alignTokens, splitSentence } from '../../web/world-editor/sentence.js';
import { headRowsToFit } from '../../web/world-editor/heads-fit.js';
import { checkWorld } from '../../web/widgets/shared/world-check.js';

const LESSON = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/world.json', import.meta.url), 'utf8'));
const GERMAN = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/worlds/german.json', import.meta.url), 'utf8'));
const edits = (doc, ...list) => list.reduce(applyEdit, doc);
const consistent = (world) => world.features.every((f) => f.values.length === world.tokens.length);

test('a document copies its world and anchors the roles at their tokens', () => {
  const doc = createDocument(LESSON);
  assert.deepEqual(doc.anchors, { query: 6, subject: 1, complement: 7 });
  doc.world.tokens[0] = 'changed';
  assert.equal(LESSON.tokens[0], 'The', 'the caller\'s world is not changed');
  assert.deepEqual(checkWorld(createDocument(LESSON).world), []);
  // German has three commas: a role naming a repeated token has no anchor.
  const german = createDocument({ ...GERMAN, query: ',' });
  assert.equal(german.anchors.query, null);
  assert.throws(() => createDocument([1, 2]), EditError);
});

test('an edit returns a new document and leaves the old one as it was (undo keeps old ones)', () => {
  const doc = createDocument(LESSON);
  const next = applyEdit(doc, { type: 'value', feature: 0, token: 3, text: '0.5' });
  assert.equal(next.world.features[0].values[3], 0.5);
  assert.equal(doc.world.features[0].values[3], 1);
});

test('cells: numbers in plain notation become numbers; anything else stays as typed for checkWorld to name', () => {
  assert.equal(cellValue('0.25'), 0.25);
  assert.equal(cellValue('\u22120.5'), -0.5, 'the typographic minus');
  assert.equal(cellValue(' -3 '), -3);
  assert.equal(cellValue('1e-3'), 0.001);
  assert.equal(cellValue('-0'), 0);
  for (const text of ['abc', '', '1,5', '0x10', 'Infinity', '1 2']) assert.equal(cellValue(text), text);
  const doc = applyEdit(createDocument(LESSON), { type: 'value', feature: 0, token: 3, text: 'abc' });
  const problems = locateProblems(checkWorld(doc.world), doc.world);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].key, 'value:0:3');
  assert.equal(problems[0].text, 'Value of feature “verb” for token 4 “wrote”: expected a number from −1000 to 1000, found the text “abc”');
});

test('adding and removing tokens keeps one value per token in every feature, and the roles on their tokens', () => {
  let doc = createDocument(LESSON);
  doc = applyEdit(doc, { type: 'insertToken', index: 0, text: 'Yesterday' });
  assert.ok(consistent(doc.world));
  assert.equal(doc.world.features[8].values[0], 0, 'a new token starts at 0 in every row');
  assert.deepEqual(doc.anchors, { query: 7, subject: 2, complement: 8 });
  assert.equal(doc.world.query, 'said');
  assert.deepEqual(checkWorld(doc.world), []);
  doc = applyEdit(doc, { type: 'removeToken', index: 2 }); // "researcher", the subject
  assert.ok(consistent(doc.world));
  assert.equal(doc.world.tokens.length, 11);
  assert.equal(doc.anchors.subject, null);
  assert.equal(doc.world.subject, 'researcher', 'the role keeps its name, which is now no token');
  assert.deepEqual(locateProblems(checkWorld(doc.world), doc.world).map((p) => p.key), ['role:subject']);
  doc = applyEdit(doc, { type: 'role', role: 'subject', index: 1 });
  assert.equal(doc.world.subject, 'The');
  assert.deepEqual(checkWorld(doc.world), []);
  let short = createDocument({ ...LESSON, tokens: ['a', 'b'], query: 'a', subject: 'a', complement: 'b', features: [{ name: 'x', values: [1, 2] }] });
  assert.throws(() => applyEdit(short, { type: 'removeToken', index: 0 }), /at least 2 tokens/);
  short = applyEdit(short, { type: 'insertToken', index: 99, text: 'c' });
  assert.deepEqual(short.world.tokens, ['a', 'b', 'c'], 'an index past the end adds at the end');
});

test('renaming a token: the roles anchored there follow it, even through a moment when two tokens are spelled alike', () => {
  let doc = createDocument(LESSON);
  doc = edits(doc, { type: 'renameToken', index: 6, text: 'sai' }, { type: 'renameToken', index: 6, text: 'wrote' });
  assert.equal(doc.world.query, 'wrote');
  assert.equal(checkWorld(doc.world)[0].path, 'query', 'two tokens “wrote”: the query is ambiguous, and said so');
  doc = applyEdit(doc, { type: 'renameToken', index: 6, text: 'claimed' });
  assert.equal(doc.world.query, 'claimed', 'the query is still the token it was');
  assert.deepEqual(checkWorld(doc.world), []);
});

test('renaming a feature renames its rows in every head, its key-column labels and the reader\'s meaning list', () => {
  let doc = createDocument(LESSON);
  doc = applyEdit(doc, { type: 'renameFeature', feature: 2, name: 'clause a' });
  assert.deepEqual(Object.keys(doc.world.heads[0].query), ['clause a', 'clause y', 'verb'], 'the rows keep their order');
  assert.deepEqual(doc.world.heads[0].keyColumns, ['clause a', 'clause y', 'subject']);
  assert.deepEqual(doc.world.heads[1].key['clause a'], [5, 0, 0]);
  assert.deepEqual(checkWorld(doc.world), []);
  // "meaning 1" -> "sense 1": the reader's meanings were implied by the names; now listed.
  doc = applyEdit(doc, { type: 'renameFeature', feature: 9, name: 'sense 1' });
  assert.deepEqual(doc.world.reader.meaningFeatures, ['sense 1', 'meaning 2', 'meaning 3']);
  assert.deepEqual(doc.world.heads[3].value['sense 1'], [1, 0, 0]);
  assert.deepEqual(checkWorld(doc.world), []);
  assert.throws(() => applyEdit(doc, { type: 'renameFeature', feature: 0, name: 'subject' }), /already the name of feature 2/);
  // Typing a name letter by letter passes through names of no other feature: each step renames.
  const typed = ['', 'v', 've', 'ver', 'verbs'].reduce((d, name) => applyEdit(d, { type: 'renameFeature', feature: 0, name }), doc);
  assert.deepEqual(typed.world.heads[0].query.verbs, [0, 0, 1]);
  assert.deepEqual(checkWorld(typed.world), []);
});

test('adding a feature adds a row of zeros; removing one removes its rows and its reader coordinate', () => {
  let doc = createDocument(LESSON);
  doc = applyEdit(doc, { type: 'insertFeature' });
  assert.equal(doc.world.features[12].name, 'feature 13');
  assert.deepEqual(doc.world.features[12].values, new Array(11).fill(0));
  // 13 features do not split into 4 heads: checkWorld points at the heads' section.
  assert.deepEqual(locateProblems(checkWorld(doc.world), doc.world).map((p) => p.key)[0], 'json:heads');
  doc = applyEdit(doc, { type: 'insertFeature', index: 0, name: 'meaning 0' });
  assert.deepEqual(doc.world.reader.meaningFeatures, ['meaning 1', 'meaning 2', 'meaning 3'], 'a new "meaning" feature does not join the reader unasked');
  doc = applyEdit(createDocument(LESSON), { type: 'removeFeature', index: 10 }); // meaning 2
  assert.equal(doc.world.features.length, 11);
  assert.equal(doc.world.heads[0].value['meaning 2'], undefined);
  assert.deepEqual(doc.world.reader.subjects[0].meaning, [0.707, 0.3]);
  assert.throws(() => applyEdit(createDocument({ ...LESSON, features: [LESSON.features[0]] }), { type: 'removeFeature', index: 0 }), /at least 1 feature/);
});

test('the advanced sections: JSON that does not parse is kept as text, and the world keeps its last value', () => {
  let doc = createDocument(LESSON);
  doc = applyEdit(doc, { type: 'json', section: 'headCounts', text: '[1, 2' });
  assert.deepEqual(doc.world.headCounts, [1, 2, 4]);
  assert.equal(doc.texts.headCounts.text, '[1, 2');
  assert.match(doc.texts.headCounts.error, /not JSON yet/);
  doc = applyEdit(doc, { type: 'json', section: 'headCounts', text: '[1, 2]' });
  assert.deepEqual(doc.world.headCounts, [1, 2]);
  assert.equal(doc.texts.headCounts, undefined);
  doc = applyEdit(doc, { type: 'json', section: 'reader', text: '  ' });
  assert.equal(doc.world.reader, undefined, 'an empty reader is no reader');
  doc = applyEdit(doc, { type: 'json', section: 'other', text: '{"headsNote": "mine", "tokens": []}' });
  assert.match(doc.texts.other.error, /“tokens” has a control of its own/);
  doc = applyEdit(doc, { type: 'json', section: 'other', text: '{"headsNote": "mine"}' });
  assert.equal(doc.world.headsNote, 'mine');
  assert.equal(doc.world.mergedColour, undefined, 'fields left out of "other" are removed');
  assert.equal(doc.world.outputProjection, undefined);
});

test('problem paths land on their controls; what has none lands on its section', () => {
  const w = LESSON;
  assert.deepEqual(targetOf('features[3].values[4]', w), { key: 'value:3:4', label: 'Value of feature “clause y” for token 5 “the”', section: 'table' });
  assert.equal(targetOf('features[1].name', w).key, 'name:1');
  assert.equal(targetOf('features[1].values', w).key, 'name:1');
  assert.equal(targetOf('features[1].colour', w).key, 'name:1');
  assert.equal(targetOf('features[1].about', w).key, 'about:1');
  assert.equal(targetOf('tokens[2]', w).key, 'token:2');
  assert.equal(targetOf('tokens', w).key, 'section:table');
  assert.equal(targetOf('heads[1].query["verb"][2]', w).key, 'json:heads');
  assert.equal(targetOf('headCounts (h = 2)', w).key, 'json:headCounts');
  assert.equal(targetOf('reader.subjects[0].meaning', w).key, 'json:reader');
  assert.equal(targetOf('query', w).key, 'role:query');
  assert.equal(targetOf('language', w).key, 'field:language');
  assert.equal(targetOf('mergedColour', w).key, 'json:other');
  assert.equal(targetOf('colour', w).key, 'json:other', 'a field a world has not');
  assert.equal(targetOf('world', w).key, 'section:start');
  assert.equal(cellLabel({ tokens: ['a', ''], features: [{ name: '' }] }, 0, 1), 'Value of feature 1 for token 2');
  const [located] = locateProblems([{ path: 'heads[1].query["verb"][2]', message: 'expected 3 numbers' }], w);
  assert.equal(located.text, 'Heads (JSON) (heads[1].query["verb"][2]): expected 3 numbers', 'a JSON section\'s problem keeps its path');
});

test('undo: one step per edit, one per control while typing in it; redo; a new world starts afresh', () => {
  const doc = createDocument(LESSON);
  const history = new History(doc);
  const typed = ['0', '0.', '0.5'].map((text) => applyEdit(doc, { type: 'value', feature: 0, token: 0, text }));
  for (const d of typed) history.push(d, 'value:0:0');
  history.seal();
  const removed = applyEdit(typed[2], { type: 'removeToken', index: 0 });
  history.push(removed);
  assert.equal(history.undo(), typed[2]);
  assert.equal(history.undo(), doc, 'the three keys in one cell are one step');
  assert.equal(history.canUndo, false);
  assert.equal(history.redo(), typed[2]);
  history.push(removed);
  assert.equal(history.canRedo, false, 'a new edit drops what could be redone');
  history.reset(doc);
  assert.equal(history.canUndo, false);
});

test('the draft: saved under a versioned key, read back, and unreadable drafts ignored, never thrown', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
  const doc = applyEdit(createDocument(LESSON), { type: 'value', feature: 0, token: 0, text: 'abc' });
  assert.equal(saveDraft(storage, { doc, lastGood: LESSON, origin: { id: 'lesson', title: 'x' } }), true);
  assert.match(DRAFT_KEY, /:v1$/);
  const back = loadDraft(storage);
  assert.deepEqual(back.doc, doc);
  assert.deepEqual(back.lastGood, LESSON);
  store.set(DRAFT_KEY, '{not json');
  assert.equal(loadDraft(storage), null);
  store.set(DRAFT_KEY, JSON.stringify({ version: 2, doc }));
  assert.equal(loadDraft(storage), null, 'another version is not misread');
  const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
  assert.equal(saveDraft(full, { doc }), false);
  assert.equal(saveDraft(null, { doc }), false, 'no storage at all (a sandboxed frame)');
  assert.equal(loadDraft(null), null);
});

test('export: exactly the world, $schema and formatVersion first, in the format\'s order; a safe file name', () => {
  const doc = edits(createDocument({ ...GERMAN, $schema: undefined }), { type: 'value', feature: 0, token: 0, text: '0.5' }, { type: 'insertToken', index: 1, text: 'neu' });
  const out = exportedWorld(doc.world);
  assert.deepEqual(Object.keys(out).slice(0, 4), ['$schema', 'formatVersion', 'title', 'language']);
  assert.equal(out.$schema, '../world.schema.json');
  // (JSON writes the German world's −0 as 0: compared as JSON.)
  assert.deepEqual(JSON.parse(exportText(doc.world)), JSON.parse(JSON.stringify(out)));
  assert.deepEqual(checkWorld(out), []);
  assert.equal(out.features[0].values[0], 0.5);
  assert.equal(exportFileName(GERMAN), 'der-koch-der-die-suppe-kochte.json');
  assert.equal(exportFileName({ title: 'Straße über Äpfel!' }), 'strasse-uber-apfel.json');
  assert.equal(exportFileName({ title: '???' }), 'world.json');
});

test('import: text that is not JSON, or JSON that is not a world, is said; a world with wrong fields is taken', () => {
  assert.match(readWorldText('{"tokens": [', 'the pasted text').error, /^The pasted text is not valid JSON/);
  assert.match(readWorldText('[1, 2]', 'the file a.json').error, /^The file a.json is JSON but not a world: .* this is a list/);
  assert.match(readWorldText('{"sentence": "x"}', 'the pasted text').error, /no "tokens" list/);
  const { world } = readWorldText('{"tokens": ["a", "b"], "features": [{"name": "x", "values": [1]}]}', 'the pasted text');
  assert.ok(locateProblems(checkWorld(world), world).some((p) => p.key === 'field:sentence'), 'the missing sentence is said at its field');
  assert.ok(locateProblems(checkWorld(world), world).some((p) => p.key === 'name:0'), 'the short row is said at its feature');
});

test('the sentence\'s words as tokens: words and marks split; tokens that stay keep their numbers and roles', () => {
  assert.deepEqual(splitSentence(GERMAN.sentence), GERMAN.tokens);
  assert.deepEqual(splitSentence(LESSON.sentence), LESSON.tokens);
  assert.deepEqual(splitSentence('It’s a well-known “fact”!'), ['It’s', 'a', 'well-known', '“', 'fact', '”', '!']);
  assert.deepEqual(alignTokens(['a', 'b', 'c'], ['a', 'x', 'b', 'c']), [0, -1, 1, 2]);
  let doc = createDocument(LESSON);
  doc = edits(doc,
    { type: 'field', field: 'sentence', value: 'The young researcher who wrote the paper said that it was wrong.' },
    { type: 'tokensFromSentence' });
  assert.equal(doc.world.tokens.length, 13);
  assert.ok(consistent(doc.world));
  assert.equal(doc.world.features[0].values[7], 1, '“said” keeps its verb 1 at its new place');
  assert.equal(doc.world.features[0].values[1], 0, '“young” starts at 0');
  assert.deepEqual([doc.world.query, doc.world.subject, doc.world.complement], ['said', 'researcher', 'it']);
  assert.deepEqual(doc.anchors, { query: 7, subject: 2, complement: 9 });
  assert.deepEqual(checkWorld(doc.world), []);
  assert.throws(() => edits(doc, { type: 'field', field: 'sentence', value: 'Hello' }, { type: 'tokensFromSentence' }), /a world has 2 to 64 tokens/);
});

test('after features are added, one edit fits every head\'s rows to the new d_k', () => {
  let doc = createDocument(LESSON);
  assert.equal(headRowsToFit(doc.world), null, 'the lesson\'s rows are d_k wide');
  doc = edits(doc, ...[0, 1, 2, 3].map(() => ({ type: 'insertFeature' })));
  assert.equal(headRowsToFit(doc.world).dK, 4);
  assert.ok(checkWorld(doc.world).some((p) => /expected 4 numbers, found 3/.test(p.message)));
  doc = applyEdit(doc, { type: 'fitHeads' });
  assert.deepEqual(doc.world.heads[0].query['clause x'], [1, 0, 0, 0]);
  assert.deepEqual(doc.world.heads[2].keyColumns, ['position cos', 'position sin', 'unused', 'unused']);
  assert.deepEqual(checkWorld(doc.world), []);
  assert.throws(() => applyEdit(doc, { type: 'fitHeads' }), /nothing to fit/);
  // 13 features and 4 heads: no d_k to fit to.
  assert.equal(headRowsToFit(applyEdit(createDocument(LESSON), { type: 'insertFeature' }).world), null);
});
