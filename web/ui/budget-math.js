// The arithmetic of a budget bar (an attention-weight row: non-negative, sums to 1).
// No DOM here (Node imports it); tests in tests/node/ui-budget.test.mjs. `rebalance` (set
// one weight, rescale the others) is the lesson's one implementation.

/** Sets entry `index` of a weight row to `value` and rescales the rest to keep the sum 1. */
export function rebalance(weights, index, value) {
  const v = Math.min(1, Math.max(0, value));
  const othersTotal = weights.reduce((sum, w, i) => (i === index ? sum : sum + w), 0);
  return weights.map((w, i) => {
    if (i === index) return v;
    if (othersTotal > 1e-12) return (w * (1 - v)) / othersTotal;
    return (1 - v) / (weights.length - 1); // the others were all 0: share the rest evenly
  });
}

/**
 * Rounds weights to `decimals` so that the rounded values add up to the rounded total
 * exactly (largest remainder): the labels of a bar never read 0.34 + 0.33 + 0.34 = 1.01.
 */
export function roundToSum(weights, decimals = 2) {
  const unit = 10 ** decimals;
  const clean = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const scaled = clean.map((w) => w * unit);
  const floors = scaled.map(Math.floor);
  const total = Math.round(clean.reduce((s, w) => s + w, 0) * unit);
  let missing = total - floors.reduce((s, f) => s + f, 0);
  const order = scaled.map((s, i) => [s - floors[i], i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (missing <= 0) break;
    floors[i] += 1;
    missing -= 1;
  }
  return floors.map((f) => f / unit);
}

/**
 * Drawn pieces of a bar `width` px wide: each token whose segment is at least `minWidth`
 * px is its own piece; runs of narrower neighbours become one "rest" piece (labelled as a
 * group, so what is written under the bar still adds up to the total).
 * @returns {{ indices: number[], start: number, weight: number, rest: boolean }[]}
 */
export function groupSegments(weights, width, minWidth = 24) {
  const pieces = [];
  let start = 0;
  weights.forEach((w, i) => {
    const tiny = w * width < minWidth;
    const last = pieces[pieces.length - 1];
    if (tiny && last?.tiny) {
      last.indices.push(i);
      last.weight += w;
      last.rest = true;
    } else {
      pieces.push({ indices: [i], start, weight: w, rest: false, tiny });
    }
    start += w;
  });
  return pieces.map(({ indices, start: s, weight, rest }) => ({ indices, start: s, weight, rest }));
}

/** Weight `index` moved by `delta` (snapped to 0.01), the rest rescaled to keep the sum 1. */
export function stepWeight(weights, index, delta) {
  const target = Math.round((weights[index] + delta) * 100) / 100;
  return rebalance(weights, index, Math.min(1, Math.max(0, target)));
}

/**
 * The boundary between tokens `left` and `left + 1` dragged to `fraction` of the bar:
 * weight moves between those two only; every other weight stays as it is.
 */
export function moveBoundary(weights, left, fraction) {
  const start = weights.slice(0, left).reduce((s, w) => s + w, 0);
  const pair = weights[left] + weights[left + 1];
  const first = Math.min(pair, Math.max(0, fraction - start));
  const rounded = Math.round(first * 1000) / 1000;
  const row = weights.slice();
  row[left] = Math.min(pair, rounded);
  row[left + 1] = pair - row[left];
  return row;
}

/**
 * The boundary between tokens `left` and `left + 1` dragged to `fraction` of the bar, as a
 * split of the whole budget: every token left of the boundary is rescaled so that together
 * they get `fraction`, every token right of it so that together they get the rest. The
 * boundary follows the pointer exactly, and weight moves between two far-apart tokens
 * (e.g. a subject and a complement) whatever lies between them. A side with no weight
 * gives what it receives to the token next to the boundary.
 */
export function moveSplit(weights, left, fraction) {
  const f = Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 1000;
  const leftTotal = weights.slice(0, left + 1).reduce((s, w) => s + w, 0);
  const rightTotal = weights.slice(left + 1).reduce((s, w) => s + w, 0);
  return weights.map((w, i) => {
    const onLeft = i <= left;
    const total = onLeft ? leftTotal : rightTotal;
    const share = onLeft ? f : 1 - f;
    if (total > 1e-12) return (w * share) / total;
    return i === left || i === left + 1 ? share : 0;
  });
}
