// Double-precision reference kernels: the definitions, written as directly as possible.
//
// These exist only to be compared against. They use the textbook loop orders and no
// tricks, so that they are obviously correct by reading. Tests convert float inputs to
// double (exactly) and call these; the rounding error of a double computation is about
// 2^-53 relative, some 10^9 times smaller than the float kernels' tolerance, so the result
// can be treated as exact.
#include <cmath>
#include <cstddef>
#include <limits>

#include "mha/kernels.hpp"

namespace mha {

namespace {

inline std::ptrdiff_t off(int row, int ld) {
  return static_cast<std::ptrdiff_t>(row) * static_cast<std::ptrdiff_t>(ld);
}

}  // namespace

// C[i][j] = sum_p A[i][p] * B[p][j].
void gemm_nn_f64_reference(int m, int n, int k, const double* a, int lda, const double* b,
                           int ldb, double* c, int ldc) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int p = 0; p < k; ++p) s += a[off(i, lda) + p] * b[off(p, ldb) + j];
      c[off(i, ldc) + j] = s;
    }
  }
}

// Numerators of a stable softmax: x_j <- exp(x_j - max) and sums[r] = sum_l exp(x_l - max).
// -inf entries become 0; a row with no finite entry (all -inf) becomes all zeros, sum 0.
void softmax_numerators_f64_reference(int rows, int cols, double* x, int ld, double* sums) {
  const double neg_inf = -std::numeric_limits<double>::infinity();
  for (int r = 0; r < rows; ++r) {
    double* xr = x + off(r, ld);
    double mx = neg_inf;
    for (int j = 0; j < cols; ++j) {
      if (xr[j] > mx) mx = xr[j];
    }
    double s = 0.0;
    for (int j = 0; j < cols; ++j) {
      xr[j] = (mx == neg_inf || xr[j] == neg_inf) ? 0.0 : std::exp(xr[j] - mx);
      s += xr[j];
    }
    sums[r] = s;
  }
}

// x_j <- exp(x_j - max) / sum exp(x_l - max): the numerators above, divided by their sum.
// A row with a finite entry has sum >= 1 (its max contributes exp(0)); an all -inf row
// (sum 0) stays all zeros.
void softmax_rows_f64_reference(int rows, int cols, double* x, int ld) {
  for (int r = 0; r < rows; ++r) {
    double* xr = x + off(r, ld);
    double s = 0.0;
    softmax_numerators_f64_reference(1, cols, xr, ld, &s);
    if (s == 0.0) continue;
    for (int j = 0; j < cols; ++j) xr[j] /= s;
  }
}

}  // namespace mha
