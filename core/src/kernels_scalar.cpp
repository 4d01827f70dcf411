// Portable single-precision kernels: the scalar twins of the SIMD kernels.
//
// These are plain C++ loops, written in the order that makes the memory traffic friendly
// (unit stride in the innermost loop) so that an optimising compiler can vectorise them by
// itself: g++ -O3 -march=native turns the inner loops into AVX code, and clang with
// -msimd128 turns them into SIMD128 code. They are the fallback when a build has no
// hand-written SIMD kernels and the "twin" the SIMD kernels are tested against.
//
// Contract (see kernels.hpp): row-major with explicit leading dimensions, no allocation, no
// exceptions, any (float-aligned) alignment, any sizes >= 0.
#include <cmath>
#include <cstddef>
#include <limits>

#include "mha/kernels.hpp"

namespace mha {

namespace {

// Offsets are formed in std::ptrdiff_t so that row * ld cannot overflow int even when the
// product is larger than INT_MAX (possible natively with large matrices).
inline std::ptrdiff_t off(int row, int ld) {
  return static_cast<std::ptrdiff_t>(row) * static_cast<std::ptrdiff_t>(ld);
}

}  // namespace

// C = A B, loop order i-p-j ("i-k-j").
//
// For a fixed output row i, C[i][:] = sum_p A[i][p] * B[p][:]: row i of C is a linear
// combination of the rows of B with coefficients taken from row i of A. The innermost
// loop (over j) therefore reads one row of B and updates one row of C, both with unit
// stride, with a single loop-invariant scalar A[i][p]. That is the "axpy" form: it
// vectorises trivially and touches each cache line of B and C sequentially. The textbook
// i-j-p order would instead walk down a column of B with stride ldb, one cache line per
// multiply-add.
//
// Row i of C is zeroed first because C is overwritten, not accumulated into (and a k of 0
// must produce zeros).
void gemm_nn_f32_scalar(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                        float* c, int ldc) {
  for (int i = 0; i < m; ++i) {
    float* ci = c + off(i, ldc);
    const float* ai = a + off(i, lda);
    for (int j = 0; j < n; ++j) ci[j] = 0.0f;
    for (int p = 0; p < k; ++p) {
      const float aip = ai[p];
      const float* bp = b + off(p, ldb);
      for (int j = 0; j < n; ++j) ci[j] += aip * bp[j];
    }
  }
}

// Row-wise softmax, in place, in three passes over the row:
//   1. mx = max_j x_j. Masked entries (-inf) never win unless the whole row is masked.
//   2. e_j = exp(x_j - mx) and s = sum_j e_j. Since x_j - mx <= 0, every e_j is in [0, 1]:
//      nothing overflows however large the logits are (with +/-1e30 the differences are at
//      most 2e30 in magnitude, still finite in float, and exp of them is 0 or 1). The entry
//      that attains the maximum gives e = 1, so s >= 1 and the division is safe. A masked
//      entry gives exp(-inf - mx) = exp(-inf) = 0 exactly.
//   3. x_j = e_j * (1/s): one division per row instead of one per entry.
// A fully masked row (mx = -inf) would give exp(-inf - (-inf)) = exp(NaN); it is defined
// to attend to nothing, so it is set to zeros instead.
void softmax_numerators_f32_scalar(int rows, int cols, float* x, int ld, float* sums) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (int r = 0; r < rows; ++r) {
    float* xr = x + off(r, ld);
    float mx = neg_inf;
    for (int j = 0; j < cols; ++j) mx = xr[j] > mx ? xr[j] : mx;
    if (mx == neg_inf) {
      for (int j = 0; j < cols; ++j) xr[j] = 0.0f;
      sums[r] = 0.0f;
      continue;
    }
    float s = 0.0f;
    for (int j = 0; j < cols; ++j) {
      const float e = std::exp(xr[j] - mx);
      xr[j] = e;
      s += e;
    }
    sums[r] = s;
  }
}

void softmax_rows_f32_scalar(int rows, int cols, float* x, int ld) {
  for (int r = 0; r < rows; ++r) {
    float* xr = x + off(r, ld);
    float s;
    softmax_numerators_f32_scalar(1, cols, xr, ld, &s);
    if (s == 0.0f) continue;  // fully masked: already all zeros
    const float inv = 1.0f / s;
    for (int j = 0; j < cols; ++j) xr[j] *= inv;
  }
}

// A float is finite exactly when its exponent field is not all ones (all ones with a zero
// mantissa is +/-infinity, with a non-zero one NaN). std::isfinite says the same; the loop
// has no early exit inside a row so that compilers can vectorise it, and stops after the
// first row that fails.
bool all_finite_f32_scalar(int rows, int cols, const float* x, int ld) {
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + off(r, ld);
    bool row_ok = true;
    for (int j = 0; j < cols; ++j) row_ok &= static_cast<bool>(std::isfinite(xr[j]));
    if (!row_ok) return false;
  }
  return true;
}

}  // namespace mha
