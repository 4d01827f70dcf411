// The hot loops of multi-head attention, as small pure functions.
//
// Naming: <operation>_<type>_<target>. Every SIMD kernel (`_wasmsimd`, compiled only when
// the compiler targets WebAssembly SIMD128) has a scalar twin (`_scalar`, always present)
// computing the same thing in the same order of magnitude of rounding, and a
// double-precision reference (`_f64_reference`) that tests compare both against.
//
// All matrices are row-major with an explicit leading dimension (the distance, in elements,
// between the starts of consecutive rows), so a kernel can work on one head's column slice
// of a wider matrix without copying it. Kernels never allocate, never throw and accept any
// alignment; callers validate shapes and values before calling.
#pragma once

#include <cstddef>

namespace mha {

// C[m x n] = A[m x k] * B[k x n]. C is overwritten (not accumulated into).
// Used for the projections X W, the scores Q_i (K_i^T / sqrt(d_k)) with K_i^T packed, the
// weighted sum of values A V, and Concat W_O.
void gemm_nn_f32_scalar(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                        float* c, int ldc);
void gemm_nn_f64_reference(int m, int n, int k, const double* a, int lda, const double* b,
                           int ldb, double* c, int ldc);

// In place, for each of `rows` rows of length `cols` (leading dimension ld):
//   x_j <- exp(x_j - max_j x_j) / sum_j exp(x_j - max_j x_j).
// -infinity marks a masked entry and becomes exactly 0. A row whose entries are all
// -infinity (fully masked) becomes all zeros: it attends to nothing. Finite inputs of any
// magnitude up to float's range (e.g. +/-1e30) give finite weights, because subtracting
// the row maximum makes every exponent <= 0.
void softmax_rows_f32_scalar(int rows, int cols, float* x, int ld);
void softmax_rows_f64_reference(int rows, int cols, double* x, int ld);

// The softmax without its division: in place, x_j <- exp(x_j - max_j x_j), and
// sums[r] = the row's sum of them (>= 1, or 0 for a fully masked row, which becomes all
// zeros). softmax_rows is this followed by x_j *= 1 / sums[r]. The forward pass divides
// the d_k outputs of the weighted sum instead of the L weights (softmax(s) V = (e V) / sum e).
void softmax_numerators_f32_scalar(int rows, int cols, float* x, int ld, float* sums);
void softmax_numerators_f64_reference(int rows, int cols, double* x, int ld, double* sums);

// True if every entry of the rows x cols matrix (leading dimension ld) is finite: no NaN,
// no +/-infinity. The forward pass checks each product with it, so that an overflow is
// named where it happened instead of flowing into the page. Reads nothing outside the
// logical entries (the padding between rows may hold anything).
bool all_finite_f32_scalar(int rows, int cols, const float* x, int ld);

// SIMD128 versions (core/src/kernels_wasmsimd.cpp). Same contracts, with two documented
// differences from the scalar twins: gemm_nn_f32_wasmsimd copies blocks of B through a
// fixed 16 KiB stack buffer (no heap allocation), and softmax_rows_f32_wasmsimd returns
// exactly 0 for weights whose exponential is below about 1.6e-38 (x - max < -87.68), where
// std::exp would give a subnormal (a difference below 1.6e-38).
#if defined(__wasm_simd128__)
void gemm_nn_f32_wasmsimd(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                          float* c, int ldc);
void softmax_rows_f32_wasmsimd(int rows, int cols, float* x, int ld);
void softmax_numerators_f32_wasmsimd(int rows, int cols, float* x, int ld, float* sums);
bool all_finite_f32_wasmsimd(int rows, int cols, const float* x, int ld);
#endif

// One set of kernels for one target. The forward pass calls kernels only through a
// KernelSet, so choosing a target happens in exactly one place (active_kernels()).
struct KernelSet {
  const char* target;  // "wasmsimd" or "scalar"
  decltype(&gemm_nn_f32_scalar) gemm_nn;
  decltype(&softmax_rows_f32_scalar) softmax_rows;
  decltype(&softmax_numerators_f32_scalar) softmax_numerators;
  decltype(&all_finite_f32_scalar) all_finite;
};

// The scalar kernels; always available.
const KernelSet& scalar_kernels();
// The SIMD128 kernels, or nullptr when this build does not target WebAssembly SIMD.
const KernelSet* wasmsimd_kernels();
// The dispatch point: the fastest set this build has.
const KernelSet& active_kernels();

}  // namespace mha
