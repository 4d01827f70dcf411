// What the training sources (training_layer.cpp, training_model.cpp, training_trainer.cpp)
// share, and nothing else includes: the matrix products and softmaxes for either scalar
// type, strided blocks, and the seeded random streams.
//
// Matrix products go through Ops<T>::gemm: for float the active kernel set (the SIMD128
// gemm_nn in the SIMD build), for double the double-precision reference kernel. The
// kernels only compute C = A B, so a product with a transposed factor packs the transpose
// first (an O(rows x cols) copy next to the O(m n k) product), as the forward pass of
// attention.cpp does with K_i^T.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mha/kernels.hpp"
#include "mha/lesson_math.hpp"
#include "mha/matrix.hpp"
#include "mha/training.hpp"

namespace mha::training_internal {

template <typename T>
struct Ops;

template <>
struct Ops<float> {
  static void gemm(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c,
                   int ldc) {
    active_kernels().gemm_nn(m, n, k, a, lda, b, ldb, c, ldc);
  }
  static void softmax(int rows, int cols, float* x, int ld) {
    active_kernels().softmax_rows(rows, cols, x, ld);
  }
};

template <>
struct Ops<double> {
  static void gemm(int m, int n, int k, const double* a, int lda, const double* b, int ldb,
                   double* c, int ldc) {
    gemm_nn_f64_reference(m, n, k, a, lda, b, ldb, c, ldc);
  }
  static void softmax(int rows, int cols, double* x, int ld) {
    softmax_rows_f64_reference(rows, cols, x, ld);
  }
};

template <typename T>
using Strided = Eigen::Map<const MatrixT<T>, 0, Eigen::OuterStride<>>;

// A rows x cols block starting at p with row stride ld.
template <typename T>
Strided<T> block(const T* p, int rows, int cols, int ld) {
  return Strided<T>(p, rows, cols, Eigen::OuterStride<>(ld));
}

inline std::ptrdiff_t off(int row, int ld) {
  return static_cast<std::ptrdiff_t>(row) * static_cast<std::ptrdiff_t>(ld);
}

inline std::uint32_t xorshift(std::uint32_t& state) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

// A non-zero xorshift32 state derived from a seed and a stream number (splitmix-style mix),
// so that weights, batches and the evaluation set use independent streams.
inline std::uint32_t stream_state(std::uint32_t seed, std::uint32_t stream) {
  std::uint32_t z = seed * 0x9E3779B9u + stream * 0x85EBCA6Bu + 0x632BE5ABu;
  z ^= z >> 16;
  z *= 0x7FEB352Du;
  z ^= z >> 15;
  z *= 0x846CA68Bu;
  z ^= z >> 16;
  return z != 0 ? z : 0x9E3779B9u;
}

template <typename T>
MatrixT<T> seeded(int rows, int cols, std::uint32_t seed, float scale) {
  const std::vector<float> v = seeded_matrix(rows, cols, seed, scale);
  return Eigen::Map<const MatrixF>(v.data(), rows, cols).cast<T>();
}

}  // namespace mha::training_internal
