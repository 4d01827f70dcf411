// Small matrix inputs the widgets hand to the core.

/** The n x n identity as a row-major Float32Array. */
export function identityMatrix(n) {
  const m = new Float32Array(n * n);
  for (let i = 0; i < n; i++) m[i * n + i] = 1;
  return m;
}
