// Mutations of a world for world-format.test.mjs. Each MALFORMING mutation breaks one rule
// of the format and returns the field it broke and whether the schema alone must refuse it
// (schemaBreaks: false for the rules only the checker knows: lengths, names that must
// exist, divisibility). Each HARMLESS one changes a world in a way that keeps it valid.

/** A seeded generator of numbers in [0, 1). */
export function xorshift(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

const pick = (list, random) => list[Math.floor(random() * list.length)];
const index = (list, random) => Math.floor(random() * list.length);

// Every list of numbers in a world, with its path: feature values, head rows, meanings.
function numberLists(world) {
  const lists = world.features.map((f, i) => [`features[${i}].values`, f.values]);
  world.heads.forEach((head, i) => {
    for (const kind of ['query', 'key', 'value']) {
      for (const [name, row] of Object.entries(head[kind])) lists.push([`heads[${i}].${kind}["${name}"]`, row]);
    }
  });
  for (const side of ['subjects', 'complements']) {
    world.reader?.[side].forEach((c, k) => lists.push([`reader.${side}[${k}].meaning`, c.meaning]));
  }
  return lists;
}

// [object, key, path] of every required field.
function requiredFields(world) {
  const fields = ['formatVersion', 'sentence', 'tokens', 'query', 'features', 'heads', 'headCounts'].map((key) => [world, key, key]);
  world.features.forEach((f, i) => ['name', 'values'].forEach((key) => fields.push([f, key, `features[${i}].${key}`])));
  world.heads.forEach((h, i) => ['id', 'name', 'colour', 'colourDark', 'query', 'key', 'value'].forEach((key) => fields.push([h, key, `heads[${i}].${key}`])));
  if (world.reader) {
    ['subjects', 'complements', 'subjectHead', 'complementHead'].forEach((key) => fields.push([world.reader, key, `reader.${key}`]));
    world.reader.subjects.forEach((c, k) => ['word', 'meaning'].forEach((key) => fields.push([c, key, `reader.subjects[${k}].${key}`])));
    fields.push([world, 'subject', 'subject'], [world, 'complement', 'complement']);
  }
  return fields;
}

// [object, key, path] of every text field.
function textFields(world) {
  const fields = [[world, 'sentence', 'sentence'], [world, 'query', 'query']];
  world.tokens.forEach((_, i) => fields.push([world.tokens, i, `tokens[${i}]`]));
  world.features.forEach((f, i) => fields.push([f, 'name', `features[${i}].name`]));
  world.heads.forEach((h, i) => ['id', 'name'].forEach((key) => fields.push([h, key, `heads[${i}].${key}`])));
  if (world.reader) fields.push([world.reader, 'subjectHead', 'reader.subjectHead'], [world.reader.complements[0], 'word', 'reader.complements[0].word']);
  return fields;
}

// The objects of the format that take no fields of their own choosing.
function closedObjects(world) {
  const objects = [[world, 'world'], ...world.features.map((f, i) => [f, `features[${i}]`]), ...world.heads.map((h, i) => [h, `heads[${i}]`])];
  if (world.reader) objects.push([world.reader, 'reader'], [world.reader.subjects[0], 'reader.subjects[0]']);
  return objects;
}

export const MALFORMING = [
  { name: 'a required field removed', apply(world, random) {
    const [object, key, field] = pick(requiredFields(world), random);
    delete object[key];
    return { field, schemaBreaks: true };
  } },
  { name: 'text replaced by another type', apply(world, random) {
    const [object, key, field] = pick(textFields(world), random);
    object[key] = pick([42, null, [], {}, true], random);
    return { field, schemaBreaks: true };
  } },
  { name: 'a number replaced by something else', apply(world, random) {
    const [field, list] = pick(numberLists(world), random);
    list[index(list, random)] = pick(['1', null, NaN, Infinity, -Infinity, 1e6, -2000, true, [1], {}], random);
    return { field, schemaBreaks: true };
  } },
  { name: 'a list of numbers one too long or short', apply(world, random) {
    const [field, list] = pick(numberLists(world), random);
    if (random() < 0.5 && list.length > 0) list.pop();
    else list.push(0.5);
    return { field, schemaBreaks: false };
  } },
  { name: 'a field the format does not have', apply(world, random) {
    const [object, path] = pick(closedObjects(world), random);
    const key = pick(['colourful', 'Name', 'valuez', '__proto__x', 'Query'], random);
    object[key] = 1;
    return { field: path === 'world' ? key : path, schemaBreaks: true };
  } },
  { name: 'a row for a feature that does not exist', apply(world, random) {
    const i = index(world.heads, random);
    const kind = pick(['query', 'key', 'value'], random);
    world.heads[i][kind]['no such feature'] = new Array(world.features.length / world.heads.length).fill(1);
    return { field: `heads[${i}].${kind}`, schemaBreaks: false };
  } },
  { name: 'two heads with one id, or two features with one name', apply(world, random) {
    if (random() < 0.5) {
      world.heads[1].id = world.heads[0].id;
      return { field: 'heads[1].id', schemaBreaks: false };
    }
    world.features[1].name = world.features[0].name;
    return { field: 'features[1].name', schemaBreaks: false };
  } },
  { name: 'a head count that is not one', apply(world, random) {
    const value = pick([3, 0, 2.5, -1, 17, '2', world.headCounts[0]], random);
    world.headCounts.push(value);
    return { field: 'headCounts', schemaBreaks: value !== 3 };
  } },
  { name: 'a token name that is not a token', apply(world, random) {
    const field = pick(world.reader ? ['query', 'subject', 'complement'] : ['query'], random);
    world[field] = pick(['zzz', world[field].toUpperCase() + '!'], random);
    return { field, schemaBreaks: false };
  } },
  { name: 'the query word twice in the sentence', apply(world) {
    const other = world.tokens.findIndex((t) => t !== world.query);
    world.tokens[other] = world.query;
    return { field: 'query', schemaBreaks: false };
  } },
  { name: 'a format version this reader does not know', apply(world, random) {
    world.formatVersion = pick([2, 0, '1', null, 1.5], random);
    return { field: 'formatVersion', schemaBreaks: true };
  } },
  { name: 'a colour that is not #rrggbb', apply(world, random) {
    const i = index(world.heads, random);
    world.heads[i][pick(['colour', 'colourDark'], random)] = pick(['red', '#12345', '#GGGGGG', 'rgb(1,2,3)', ''], random);
    return { field: `heads[${i}]`, schemaBreaks: true };
  } },
  { name: 'one token, or too many', apply(world, random) {
    world.tokens = random() < 0.5 ? [world.tokens[0]] : new Array(65).fill('w').map((w, i) => `${w}${i}`);
    return { field: 'tokens', schemaBreaks: true };
  } },
  { name: 'a head removed (the heads no longer divide the features)', apply(world) {
    world.heads.pop();
    return { field: 'heads', schemaBreaks: false };
  } },
  { name: 'a language tag, head id or W_O that is not one', apply(world, random) {
    const which = pick(['language', 'id', 'outputProjection'], random);
    if (which === 'language') world.language = 'english!';
    else if (which === 'id') world.heads[0].id = 'Subject Finder';
    else world.outputProjection = 'learned';
    return { field: which === 'id' ? 'heads[0].id' : which, schemaBreaks: true };
  } },
  { name: 'a reader head or meaning feature that does not exist', apply(world, random) {
    if (!world.reader) { world.query = 'zzz'; return { field: 'query', schemaBreaks: false }; }
    if (random() < 0.5) world.reader[pick(['subjectHead', 'complementHead'], random)] = 'nobody';
    else world.reader.meaningFeatures = ['no such feature'];
    return { field: 'reader', schemaBreaks: false };
  } },
  { name: 'a text far too long', apply(world, random) {
    const field = pick(['sentence', 'title'], random);
    world[field] = 'x'.repeat(field === 'sentence' ? 501 : 121);
    return { field, schemaBreaks: true };
  } },
];

function renameFeature(world, random) {
  const f = index(world.features, random);
  const old = world.features[f].name;
  const name = `${old.startsWith('meaning') ? 'meaning ' : ''}renamed ${f}`;
  world.features[f].name = name;
  for (const head of world.heads) {
    for (const kind of ['query', 'key', 'value']) {
      if (Object.hasOwn(head[kind], old)) {
        head[kind][name] = head[kind][old];
        delete head[kind][old];
      }
    }
  }
  if (world.reader?.meaningFeatures) world.reader.meaningFeatures = world.reader.meaningFeatures.map((n) => (n === old ? name : n));
}

export const HARMLESS = [
  { name: 'a number changed within range', apply(world, random) {
    const [, list] = pick(numberLists(world), random);
    if (list.length) list[index(list, random)] = Math.round((random() * 2 - 1) * 1000 * 1000) / 1000;
  } },
  { name: 'an optional field left out', apply(world, random) {
    const options = [[world, 'title'], [world, 'language'], [world, 'description'], [world, 'headsNote'], [world, 'mergedColour'],
      [world, 'outputProjection'], [world.heads[0], 'question'], [world.heads[1], 'keyColumns'], [world.features[0], 'about']];
    if (world.reader) options.push([world.reader, 'about']);
    const [object, key] = pick(options, random);
    delete object[key];
  } },
  { name: 'texts rewritten', apply(world, random) {
    world.title = `A world ${Math.floor(random() * 1000)}`;
    world.heads[0].name = 'Finder of subjects';
    world.sentence = world.tokens.join(' ');
  } },
  { name: 'a feature renamed everywhere', apply: renameFeature },
  { name: 'colours and head counts changed', apply(world, random) {
    world.heads[0].colour = `#${Math.floor(random() * 0xffffff).toString(16).padStart(6, '0')}`;
    world.headCounts = world.headCounts.slice().reverse();
  } },
];
