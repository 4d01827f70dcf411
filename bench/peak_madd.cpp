// The peak figure for `npm run bench`: how many f32 multiply-adds per second one core can
// do with WebAssembly SIMD128 when nothing else limits it. 12 independent accumulators of 4
// lanes hide the multiply and add latencies (x86 cores issue two vector multiplies or adds
// per cycle at ~4 cycles latency; V8 keeps 16 xmm registers, so 12 chains stay in
// registers); no memory traffic. Each iteration does 12 x 4 multiplies and 12 x 4 adds =
// 96 FLOP. (SIMD128 has no fused multiply-add; relaxed-simd's is unusable
// with this toolchain, see docs/TOOLCHAIN.md.)
#include <wasm_simd128.h>

extern "C" float peak_madd(int iterations, float seed) {
  v128_t acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = wasm_f32x4_splat(seed + static_cast<float>(i));
  const v128_t a = wasm_f32x4_splat(0.999999f);
  const v128_t b = wasm_f32x4_splat(1e-7f);
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < 12; ++i) acc[i] = wasm_f32x4_add(wasm_f32x4_mul(acc[i], a), b);
  }
  v128_t sum = acc[0];
  for (int i = 1; i < 12; ++i) sum = wasm_f32x4_add(sum, acc[i]);
  return wasm_f32x4_extract_lane(sum, 0);  // keeps the loop alive
}
