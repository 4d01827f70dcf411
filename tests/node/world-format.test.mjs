// The world format (lessons/multiple-heads/world.schema.json, docs/WORLDS.md): every
// shipped world is valid by the schema (checked with Ajv, a standard validator) and by the
// widgets' own checker (world-check.js); 1,000 malformed worlds, made by mutations that
// each break a rule, are all refused with problems that name a field, and nothing throws;
// 300 harmless variations are accepted by both. The schema and the checker therefore agree
// on every world tried. `npm run fuzz` runs 20,000 of each (MHA_WORLD_FUZZ).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { checkWorld, WorldError, NUMBER_LIMIT } from '../../web/widgets/shared/world-check.js';
import { buildCheckedWorld as buildWorld } from '../../web/widgets/shared/world-check.js';
import { MALFORMING, HARMLESS, xorshift } from './world-mutations.mjs';

const root = new URL('../../lessons/multiple-heads/', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('world.schema.json', root), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
const shipped = [
  ['world.json', JSON.parse(readFileSync(new URL('world.json', root), 'utf8'))],
  ...readdirSync(new URL('worlds/', root)).filter((name) => name.endsWith('.json'))
    .map((name) => [`worlds/${name}`, JSON.parse(readFileSync(new URL(`worlds/${name}`, root), 'utf8'))]),
];
const COUNT = Number(process.env.MHA_WORLD_FUZZ ?? 1000);

test('every shipped world is valid by the schema and by the checker, and builds', () => {
  assert.ok(shipped.length >= 2, 'the lesson world and at least one more');
  for (const [name, world] of shipped) {
    assert.ok(validate(world), `${name}: ${JSON.stringify(validate.errors)}`);
    assert.deepEqual(checkWorld(world), [], name);
    const w = buildWorld(world);
    assert.equal(w.dModel % w.numHeads, 0);
  }
});

test('the checker names the field and the fix', () => {
  const world = structuredClone(shipped[0][1]);
  world.heads[1].query.verb = [0, 1];
  world.features[2].values[4] = 'x';
  world.reader.subjectHead = 'nobody';
  world.colourful = true;
  const problems = checkWorld(world);
  const at = (path) => problems.find((p) => p.path === path)?.message ?? `no problem at ${path}: ${JSON.stringify(problems)}`;
  assert.match(at('heads[1].query["verb"]'), /expected 3 numbers, found 2: a head's rows are d_k = d_model \/ heads = 3 numbers wide/);
  assert.match(at('features[2].values[4]'), new RegExp(`expected a number from −${NUMBER_LIMIT} to ${NUMBER_LIMIT}, found the text “x”`));
  assert.match(at('reader.subjectHead'), /“nobody” is not the id of a head: write one of “subject”, “complement”, “previous”, “gist”/);
  assert.match(at('colourful'), /is not a field of a world: remove it, or check its spelling/);
  assert.throws(() => buildWorld(world), (error) => error instanceof WorldError && error.problems.length === problems.length && error.message.startsWith(`${problems[0].path}: ${problems[0].message}; `));
});

test('anything that is not a world is refused, never thrown', () => {
  const hostile = new Proxy({}, { get() { throw new Error('boom'); }, ownKeys() { throw new Error('boom'); } });
  const cyclic = { formatVersion: 1 };
  cyclic.tokens = [cyclic];
  const values = [undefined, null, 0, NaN, 'world', [], [1, 2], () => {}, Symbol('w'), hostile, cyclic, Object.create(null)];
  values.forEach((value, k) => {
    const problems = checkWorld(value);
    assert.ok(problems.length > 0, `value ${k}`);
    assert.ok(problems.every((p) => typeof p.path === 'string' && p.path && typeof p.message === 'string' && p.message));
  });
});

test(`${COUNT} malformed worlds: each refused by field, by the checker and the schema alike, nothing thrown`, () => {
  const random = xorshift(20261203);
  const kinds = new Map();
  for (let k = 0; k < COUNT; k++) {
    const [name, base] = shipped[k % shipped.length];
    const world = structuredClone(base);
    const mutation = MALFORMING[Math.floor(random() * MALFORMING.length)];
    const { field, schemaBreaks } = mutation.apply(world, random);
    kinds.set(mutation.name, (kinds.get(mutation.name) ?? 0) + 1);
    let problems;
    assert.doesNotThrow(() => { problems = checkWorld(world); }, `${mutation.name} on ${name}`);
    const where = `${mutation.name} on ${name} at ${field}`;
    assert.ok(problems.length > 0, `accepted: ${where}`);
    assert.ok(problems.every((p) => typeof p.path === 'string' && typeof p.message === 'string' && p.message.length > 10), where);
    // The problem is reported at the field that was broken (or the list or object holding it).
    const top = field.split(/[.[]/)[0];
    assert.ok(problems.some((p) => p.path.split(/[.[ ]/)[0] === top), `${where}: ${JSON.stringify(problems)}`);
    if (schemaBreaks) assert.equal(validate(world), false, `the schema accepted ${where}`);
    assert.throws(() => buildWorld(world), WorldError, where);
  }
  assert.equal(kinds.size, MALFORMING.length, 'every kind of mutation was tried');
});

test('300 harmless variations are accepted by the schema and the checker', () => {
  const random = xorshift(7);
  for (let k = 0; k < 300; k++) {
    const [name, base] = shipped[k % shipped.length];
    const world = structuredClone(base);
    const variation = HARMLESS[Math.floor(random() * HARMLESS.length)];
    variation.apply(world, random);
    assert.ok(validate(world), `${variation.name} on ${name}: schema ${JSON.stringify(validate.errors)}`);
    assert.deepEqual(checkWorld(world), [], `${variation.name} on ${name}`);
  }
});
