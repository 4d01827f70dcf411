// A small dense simplex method (two phases, Bland's rule, doubles) for the tests: an
// independent reference for the core's exact search in find_alternative_weights, which
// enumerates bases instead. Maximises c·x subject to A x = b, x ≥ 0.
//
//   maximize(A, b, c) → { feasible: false } | { feasible: true, value, x }
const EPS = 1e-9;

function pivot(T, row, col) {
  const p = T[row][col];
  T[row] = T[row].map((v) => v / p);
  for (let r = 0; r < T.length; r++) {
    if (r === row || Math.abs(T[r][col]) < EPS) continue;
    const f = T[r][col];
    T[r] = T[r].map((v, k) => v - f * T[row][k]);
  }
}

// Runs the simplex on tableau T (last row: reduced costs of the objective to maximise, as
// −c; last column: right-hand sides) over the columns allowed; basis[r] is row r's variable.
function run(T, basis, allowed) {
  const m = T.length - 1;
  const last = T[0].length - 1;
  for (let guard = 0; guard < 10000; guard++) {
    // Bland: the lowest-index column with a negative reduced cost enters…
    const col = allowed.find((k) => T[m][k] < -EPS);
    if (col === undefined) return true;
    // …and the lowest-index basic variable among the tied minimum ratios leaves.
    let row = -1;
    for (let r = 0; r < m; r++) {
      if (T[r][col] <= EPS) continue;
      const ratio = T[r][last] / T[r][col];
      const best = row < 0 ? Infinity : T[row][last] / T[row][col];
      if (row < 0 || ratio < best - EPS || (Math.abs(ratio - best) <= EPS && basis[r] < basis[row])) row = r;
    }
    if (row < 0) return false; // unbounded
    pivot(T, row, col);
    basis[row] = col;
  }
  throw new Error('simplex: no end');
}

export function maximize(A, b, c) {
  const m = A.length;
  const n = c.length;
  // Phase 1: artificial variables n … n+m−1 (rows with b < 0 are negated first).
  const T = A.map((row, r) => {
    const sign = b[r] < 0 ? -1 : 1;
    return [...row.map((v) => sign * v), ...Array.from({ length: m }, (_, k) => (k === r ? 1 : 0)), sign * b[r]];
  });
  const width = n + m + 1;
  const phase1 = new Array(width).fill(0);
  for (let r = 0; r < m; r++) for (let k = 0; k < width; k++) if (k < n || k === width - 1) phase1[k] -= T[r][k];
  T.push(phase1);
  const basis = Array.from({ length: m }, (_, r) => n + r);
  run(T, basis, Array.from({ length: n }, (_, k) => k));
  if (-T[m][width - 1] > 1e-7) return { feasible: false };
  // Artificial variables left in the basis at zero: pivot them out where a real column can.
  for (let r = 0; r < m; r++) {
    if (basis[r] < n) continue;
    const col = Array.from({ length: n }, (_, k) => k).find((k) => Math.abs(T[r][k]) > 1e-7);
    if (col !== undefined) { pivot(T, r, col); basis[r] = col; }
  }
  // Phase 2: the real objective, reduced against the basis.
  const objective = new Array(width).fill(0);
  for (let k = 0; k < n; k++) objective[k] = -c[k];
  for (let r = 0; r < m; r++) {
    const f = objective[basis[r]];
    if (Math.abs(f) > 0) for (let k = 0; k < width; k++) objective[k] -= f * T[r][k];
  }
  T[m] = objective;
  if (!run(T, basis, Array.from({ length: n }, (_, k) => k))) return { feasible: true, value: Infinity, x: null };
  const x = new Array(n).fill(0);
  for (let r = 0; r < m; r++) if (basis[r] < n) x[basis[r]] = T[r][width - 1];
  return { feasible: true, value: x.reduce((s, v, k) => s + v * c[k], 0), x };
}
