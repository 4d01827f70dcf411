// A checker of xAPI 1.0.3 statements (the parts of the spec, section 2.4, a record store
// enforces for what the practice sends): required properties, no unknown ones (an LRS
// rejects those), and each value's format. Returns the list of problems ([] when valid).
// Used by tests/node/practice-reporting.test.mjs and tests/browser/lms-reporting.test.mjs.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const IRI = /^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]+$/i;
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const INTERACTION_TYPES = ['true-false', 'choice', 'fill-in', 'long-fill-in', 'matching', 'performance', 'sequencing', 'likert', 'numeric', 'other'];
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function only(value, allowed, where, problems) {
  if (!isObject(value)) return problems.push(`${where}: not an object`) && false;
  for (const key of Object.keys(value)) if (!allowed.includes(key)) problems.push(`${where}: unknown property ${key}`);
  return true;
}

function languageMap(map, where, problems) {
  if (!isObject(map)) return problems.push(`${where}: not a language map`);
  for (const [tag, text] of Object.entries(map)) {
    if (!LANGUAGE_TAG.test(tag)) problems.push(`${where}: ${tag} is not a language tag`);
    if (typeof text !== 'string') problems.push(`${where}.${tag}: not a string`);
  }
}

function agent(actor, where, problems) {
  if (!only(actor, ['objectType', 'name', 'mbox', 'mbox_sha1sum', 'openid', 'account'], where, problems)) return;
  if (actor.objectType !== undefined && actor.objectType !== 'Agent') problems.push(`${where}.objectType: not Agent`);
  const ifis = ['mbox', 'mbox_sha1sum', 'openid', 'account'].filter((k) => actor[k] !== undefined);
  if (ifis.length !== 1) problems.push(`${where}: needs exactly one identifier, has ${ifis.length}`);
  if (actor.mbox !== undefined && !/^mailto:[^@\s]+@[^@\s]+$/.test(actor.mbox)) problems.push(`${where}.mbox: not mailto:`);
  if (actor.account !== undefined) {
    only(actor.account, ['homePage', 'name'], `${where}.account`, problems);
    if (!IRI.test(actor.account.homePage ?? '')) problems.push(`${where}.account.homePage: not an IRL`);
    if (typeof actor.account.name !== 'string' || !actor.account.name) problems.push(`${where}.account.name: missing`);
  }
}

function activity(object, where, problems) {
  if (!only(object, ['objectType', 'id', 'definition'], where, problems)) return;
  if (object.objectType !== undefined && object.objectType !== 'Activity') problems.push(`${where}.objectType: not Activity`);
  if (!IRI.test(object.id ?? '')) problems.push(`${where}.id: not an IRI (${object.id})`);
  const definition = object.definition;
  if (definition === undefined) return;
  if (!only(definition, ['name', 'description', 'type', 'moreInfo', 'interactionType', 'correctResponsesPattern', 'choices', 'extensions'], `${where}.definition`, problems)) return;
  if (definition.name !== undefined) languageMap(definition.name, `${where}.definition.name`, problems);
  if (definition.type !== undefined && !IRI.test(definition.type)) problems.push(`${where}.definition.type: not an IRI`);
  if (definition.interactionType !== undefined && !INTERACTION_TYPES.includes(definition.interactionType)) problems.push(`${where}.definition.interactionType: ${definition.interactionType}`);
}

function result(value, where, problems) {
  if (!only(value, ['score', 'success', 'completion', 'response', 'duration', 'extensions'], where, problems)) return;
  for (const key of ['success', 'completion']) if (value[key] !== undefined && typeof value[key] !== 'boolean') problems.push(`${where}.${key}: not a boolean`);
  if (value.response !== undefined && typeof value.response !== 'string') problems.push(`${where}.response: not a string`);
  const { score } = value;
  if (score === undefined) return;
  if (!only(score, ['scaled', 'raw', 'min', 'max'], `${where}.score`, problems)) return;
  for (const key of ['scaled', 'raw', 'min', 'max']) if (score[key] !== undefined && !Number.isFinite(score[key])) problems.push(`${where}.score.${key}: not a number`);
  if (score.scaled !== undefined && (score.scaled < -1 || score.scaled > 1)) problems.push(`${where}.score.scaled: outside -1..1`);
  if (score.min !== undefined && score.max !== undefined && !(score.min < score.max)) problems.push(`${where}.score: min not below max`);
  if (score.raw !== undefined && ((score.min !== undefined && score.raw < score.min) || (score.max !== undefined && score.raw > score.max))) problems.push(`${where}.score.raw: outside min..max`);
}

function context(value, where, problems) {
  if (!only(value, ['registration', 'instructor', 'team', 'contextActivities', 'revision', 'platform', 'language', 'statement', 'extensions'], where, problems)) return;
  if (value.registration !== undefined && !UUID.test(value.registration)) problems.push(`${where}.registration: not a UUID`);
  if (value.language !== undefined && !LANGUAGE_TAG.test(value.language)) problems.push(`${where}.language: not a language tag`);
  if (value.platform !== undefined && typeof value.platform !== 'string') problems.push(`${where}.platform: not a string`);
  const activities = value.contextActivities;
  if (activities === undefined || !only(activities, ['parent', 'grouping', 'category', 'other'], `${where}.contextActivities`, problems)) return;
  for (const [key, list] of Object.entries(activities)) [list].flat().forEach((a, k) => activity(a, `${where}.contextActivities.${key}[${k}]`, problems));
}

/** The problems of one statement as a record store would see them; [] when it is valid. */
export function statementProblems(statement) {
  const problems = [];
  if (!only(statement, ['id', 'actor', 'verb', 'object', 'result', 'context', 'timestamp', 'stored', 'authority', 'version', 'attachments'], 'statement', problems)) return problems;
  if (statement.id !== undefined && !UUID.test(statement.id)) problems.push('id: not a UUID');
  if (statement.actor === undefined) problems.push('actor: missing');
  else agent(statement.actor, 'actor', problems);
  if (!isObject(statement.verb) || !IRI.test(statement.verb.id ?? '')) problems.push('verb.id: missing or not an IRI');
  else {
    only(statement.verb, ['id', 'display'], 'verb', problems);
    if (statement.verb.display !== undefined) languageMap(statement.verb.display, 'verb.display', problems);
  }
  if (statement.object === undefined) problems.push('object: missing');
  else activity(statement.object, 'object', problems);
  if (statement.result !== undefined) result(statement.result, 'result', problems);
  if (statement.context !== undefined) context(statement.context, 'context', problems);
  if (statement.timestamp !== undefined && (!ISO_TIMESTAMP.test(statement.timestamp) || Number.isNaN(Date.parse(statement.timestamp)))) problems.push('timestamp: not ISO 8601 with a zone');
  return problems;
}
