// The kernel sets and the single dispatch point.
//
// The choice of target is made at compile time: a WebAssembly module either was compiled
// with SIMD128 (-msimd128, which defines __wasm_simd128__) or it was not, and an engine
// that lacks SIMD128 refuses to compile the whole module rather than trapping later. So
// there is nothing to detect at run time, and the sets are constants (constant-initialised,
// hence usable from any static initialiser without ordering problems).
#include "mha/kernels.hpp"

namespace mha {

namespace {

constexpr KernelSet kScalar{"scalar", &gemm_nn_f32_scalar, &softmax_rows_f32_scalar,
                           &softmax_numerators_f32_scalar, &all_finite_f32_scalar};

#if defined(__wasm_simd128__)
constexpr KernelSet kWasmSimd{"wasmsimd", &gemm_nn_f32_wasmsimd, &softmax_rows_f32_wasmsimd,
                             &softmax_numerators_f32_wasmsimd, &all_finite_f32_wasmsimd};
#endif

}  // namespace

const KernelSet& scalar_kernels() { return kScalar; }

const KernelSet* wasmsimd_kernels() {
#if defined(__wasm_simd128__)
  return &kWasmSimd;
#else
  return nullptr;
#endif
}

const KernelSet& active_kernels() {
#if defined(__wasm_simd128__)
  return kWasmSimd;
#else
  return kScalar;
#endif
}

}  // namespace mha
