// The heads' rows against d_k (no DOM). A head's W_Q, W_K and W_V rows are d_k = d_model /
// heads numbers wide, so adding or removing features changes the width every row must have:
// 12 features and 4 heads make rows of 3, 16 features rows of 4. Rewriting every row by
// hand in the heads' JSON is the chore this does in one step: rows that are too short get
// zeros at the end (the new coordinates start empty), rows that are too long lose their
// last numbers (the author sees which in the preview, and Undo brings them back).

const BLOCKS = ['query', 'key', 'value'];
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * { dK, rows } when the heads divide the features and `rows` rows are not d_k wide (the
 * rows a fit would change); null when there is nothing to fit or no d_k to fit to.
 */
export function headRowsToFit(world) {
  const heads = Array.isArray(world.heads) ? world.heads.filter(isObject) : [];
  const features = Array.isArray(world.features) ? world.features.length : 0;
  if (heads.length === 0 || heads.length !== world.heads.length || features % heads.length !== 0) return null;
  const dK = features / heads.length;
  let rows = 0;
  for (const head of heads) {
    for (const block of BLOCKS) {
      if (!isObject(head[block])) continue;
      for (const row of Object.values(head[block])) if (Array.isArray(row) && row.length !== dK) rows += 1;
    }
  }
  return rows > 0 ? { dK, rows } : null;
}

/** Makes every row of every head d_k wide (zeros added at the end, or numbers cut from it). */
export function fitHeadRows(world) {
  const fit = headRowsToFit(world);
  if (!fit) return false;
  const { dK } = fit;
  for (const head of world.heads) {
    for (const block of BLOCKS) {
      if (!isObject(head[block])) continue;
      for (const [name, row] of Object.entries(head[block])) {
        if (Array.isArray(row)) head[block][name] = [...row.slice(0, dK), ...new Array(Math.max(0, dK - row.length)).fill(0)];
      }
    }
    // One label per key column: new columns are "unused" until the author names them.
    if (Array.isArray(head.keyColumns)) head.keyColumns = [...head.keyColumns.slice(0, dK), ...new Array(Math.max(0, dK - head.keyColumns.length)).fill('unused')];
  }
  return true;
}
