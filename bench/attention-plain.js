// Multi-head attention in plain JavaScript, written the way a careful web developer would:
// Float32Array storage, row-major, i-k-j loop order for products so the inner loop streams
// contiguous rows, scores computed as dot products of contiguous head slices, softmax with
// the row maximum subtracted. The benchmark's baseline for "what does wasm buy us?".

// C[m x n] = A[m x k] B[k x n] (row-major, with leading dimensions).
function matmul(m, n, k, a, aOffset, lda, b, bOffset, ldb, c, cOffset, ldc) {
  for (let i = 0; i < m; i++) {
    const cRow = cOffset + i * ldc;
    c.fill(0, cRow, cRow + n);
    for (let p = 0; p < k; p++) {
      const aip = a[aOffset + i * lda + p];
      if (aip === 0) continue;
      const bRow = bOffset + p * ldb;
      for (let j = 0; j < n; j++) c[cRow + j] += aip * b[bRow + j];
    }
  }
}

/**
 * @param {{ seqLen: number, dModel: number, numHeads: number }} config
 * @param {{ wq: Float32Array, wk: Float32Array, wv: Float32Array, wo: Float32Array }} weights
 * @param {Float32Array} x L x d_model
 * @returns {Float32Array} the L x d_model output
 */
export function attentionForwardPlain({ seqLen: L, dModel: d, numHeads: h }, weights, x) {
  const dk = d / h;
  const q = new Float32Array(L * d), k = new Float32Array(L * d), v = new Float32Array(L * d);
  matmul(L, d, d, x, 0, d, weights.wq, 0, d, q, 0, d);
  matmul(L, d, d, x, 0, d, weights.wk, 0, d, k, 0, d);
  matmul(L, d, d, x, 0, d, weights.wv, 0, d, v, 0, d);
  const scale = 1 / Math.sqrt(dk);
  const scores = new Float32Array(L * L);
  const concat = new Float32Array(L * d);
  for (let head = 0; head < h; head++) {
    const col = head * dk;
    for (let t = 0; t < L; t++) {
      let max = -Infinity;
      for (let s = 0; s < L; s++) {
        let dot = 0;
        const qi = t * d + col, ki = s * d + col;
        for (let j = 0; j < dk; j++) dot += q[qi + j] * k[ki + j];
        const score = dot * scale;
        scores[t * L + s] = score;
        if (score > max) max = score;
      }
      let total = 0;
      for (let s = 0; s < L; s++) {
        const e = Math.exp(scores[t * L + s] - max);
        scores[t * L + s] = e;
        total += e;
      }
      const inv = 1 / total;
      for (let s = 0; s < L; s++) scores[t * L + s] *= inv;
    }
    // head output = weights V_head, written straight into its slice of Concat.
    for (let t = 0; t < L; t++) {
      const out = t * d + col;
      for (let s = 0; s < L; s++) {
        const w = scores[t * L + s];
        const vi = s * d + col;
        for (let j = 0; j < dk; j++) concat[out + j] += w * v[vi + j];
      }
    }
  }
  const output = new Float32Array(L * d);
  matmul(L, d, d, concat, 0, d, weights.wo, 0, d, output, 0, d);
  return output;
}
