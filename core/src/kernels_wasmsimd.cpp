// Hand-written WebAssembly SIMD128 kernels.
//
// Compiled only when the compiler targets SIMD128 (em++ -msimd128 defines
// __wasm_simd128__); otherwise this translation unit is empty and kernel_dispatch.cpp
// falls back to the scalar twins.
//
// Only the plain SIMD128 instruction set is used. Relaxed SIMD (which would give a fused
// multiply-add) cannot be used with clang 14 / Emscripten 3.1.6: its header has no relaxed
// intrinsics and the prototype builtins emit pre-standard opcodes that current engines
// reject. So every multiply-add below is a separate f32x4.mul and f32x4.add, each rounded.
//
// Memory access rules the code relies on:
//   * wasm_v128_load / wasm_v128_store are unaligned-safe (WebAssembly memory accesses
//     take an alignment *hint* only), so any float-aligned pointer works and no aligned and
//     unaligned variants are needed.
//   * A kernel must never touch memory outside the matrices it was given, not even to read:
//     the last row of a matrix may end exactly at the end of linear memory, where an
//     over-long load traps. Partial vectors are therefore read and written with the
//     lane-sized load/store instructions (load32_zero, load64_zero, load32_lane,
//     store32_lane, store64_lane), never with a full 16-byte access.
//
// On the target engine's register file: V8 (Node, Chromium) and SpiderMonkey compile
// SIMD128 locals to x86-64 XMM registers (or NEON q registers on arm64). On x86-64 that is
// 16 registers, one of which V8 reserves as a scratch register, and its register allocator
// also needs some for temporaries; a tile with too many live vectors spills to the stack
// inside its innermost loop, which costs more than the larger tile gains. The tile sizes
// below keep about 11 vectors live and were checked by measurement (see gemm_nn).
//
// Performance numbers quoted below are from Node 20 (V8 TurboFan code, i.e. after tier-up)
// on an x86-64 AMD EPYC, single thread.
#if defined(__wasm_simd128__)

#include <wasm_simd128.h>

#include <cstddef>
#include <limits>

#include "mha/kernels.hpp"

namespace mha {

namespace {

inline std::ptrdiff_t off(int row, int ld) {
  return static_cast<std::ptrdiff_t>(row) * static_cast<std::ptrdiff_t>(ld);
}

inline int min_int(int x, int y) { return x < y ? x : y; }

// ---------------------------------------------------------------------------------------
// Partial vectors
// ---------------------------------------------------------------------------------------

// Loads p[0..count) into lanes 0..count-1 and zeros into the others, count in 1..3,
// without reading p[count] or beyond.
inline v128_t load_partial(const float* p, int count) {
  switch (count) {
    case 1:
      return wasm_v128_load32_zero(p);
    case 2:
      return wasm_v128_load64_zero(p);
    default:
      return wasm_v128_load32_lane(p + 2, wasm_v128_load64_zero(p), 2);
  }
}

// Stores lanes 0..count-1 of v to p[0..count), count in 1..3, without writing p[count].
inline void store_partial(float* p, v128_t v, int count) {
  switch (count) {
    case 1:
      wasm_v128_store32_lane(p, v, 0);
      break;
    case 2:
      wasm_v128_store64_lane(p, v, 0);
      break;
    default:
      wasm_v128_store64_lane(p, v, 0);
      wasm_v128_store32_lane(p + 2, v, 2);
      break;
  }
}

// All-ones in lanes 0..count-1, zero in the others.
inline v128_t lane_mask(int count) {
  return wasm_i32x4_lt(wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_splat(count));
}

// ---------------------------------------------------------------------------------------
// gemm_nn: C = A B
// ---------------------------------------------------------------------------------------
//
// Register blocking. The output is computed in tiles of MR = 4 rows x NR = 8 columns. For
// each p, the tile is updated by the outer product of a column piece of A (4 scalars
// A[i..i+4)[p]) and a row piece of B (8 floats B[p][j..j+8), i.e. two vectors):
//     acc[r][v] += splat(A[i+r][p]) * B[p][j+4v .. j+4v+4)        r < 4, v < 2
// The tile's 8 accumulator vectors stay in registers for the whole p loop, so C is read and
// written once per tile instead of once per p (as in the scalar i-k-j loop, whose inner
// loop loads and stores a vector of C for every multiply-add). Per p the tile does 8 vector
// multiplies and 8 adds against only 2 vector loads of B and 4 broadcast loads of A: the
// loads no longer bound the loop, the arithmetic does.
//
// Why 4 x 8: live vectors are 8 accumulators + 2 B vectors + 1 broadcast A = 11, which fits
// the 15 XMM registers V8 can allocate with room for its own temporaries. 5 x 8 (13 live)
// and 6 x 8 (15 live) were measured about 30% slower in Node 20 (V8 spills in the inner
// loop); 4 x 12 (16 live) cannot fit at all.
// Broadcasting A (rather than B) makes the vector dimension run along rows of B and C,
// which are contiguous, so no transposition is needed anywhere.
//
// Packing B. B is read through a fixed-size stack buffer (kNnKC x kNnNC floats = 16 KiB;
// no heap allocation) into which a block of B is copied as "slivers": the 8 columns a tile
// needs, for kNnKC consecutive p, stored contiguously (8 floats per p). Two reasons:
//   * Cache-set aliasing. Rows of B are ldb floats apart; in attention ldb is a power of
//     two (64, 256, 512), so B[p][j] and B[p+1][j] are 256 B .. 2 KiB apart and map to the
//     same few sets of the 8-way L1 cache. A tile walking down kc rows of B then evicts its
//     own lines, and B loads miss L1. Measured in Node 20 (TurboFan code) at
//     256 x 512 x 512: 34 GFLOP/s unpacked, 43 GFLOP/s packed (37 -> 43 at 256 x 256 x 64).
//     Packed, a sliver is 8 KiB of consecutive addresses and stays in L1.
//   * Column tails. The sliver of the last, partial group of columns (n % 8 of them) is
//     padded with zeros, so the same 4 x 8 kernel serves it; only its loads and stores of
//     C are partial (lane-wise, never touching C past column n).
// Packing costs one copy of each B element per block, amortised over the m / 4 row blocks
// that reuse it.
//
// Cache blocking, outermost first:
//   for each column panel jc (kNnNC = 16 columns)
//     for each depth panel pc (kNnKC = 256 values of p)
//       pack B[pc .. pc+kc)[jc .. jc+nc) as nc/8 = 2 slivers (16 KiB, stays in L1)
//       for each block of 4 rows of A                 (A piece: 4 x kc floats, 4 KiB, in L1)
//         for each sliver: 4 x 8 tile over p in [pc, pc+kc)
// The packed B block is reused by all the row blocks and the A piece by both slivers.
// Block sizes kc x nc = 256 x 16, 128 x 32, 256 x 32 and 512 x 16 measured within 3% of
// each other; 16 KiB is the smallest of the fast choices, which matters because the wasm
// stack is small (newer Emscripten versions default to a 64 KiB stack).
// Cutting k means every depth panel after the first adds its partial result to C (the
// `accumulate` flag): C is loaded and stored k / kNnKC times instead of once, negligible
// next to the kNnKC multiply-adds per entry and per visit. Column panel outermost keeps the
// part of C being revisited (m x 16 floats) small.
constexpr int kNnMR = 4;
constexpr int kNnNR = 8;
constexpr int kNnKC = 256;
constexpr int kNnNC = 16;
static_assert(kNnNC % kNnNR == 0, "a column panel holds whole slivers");

// Copies B[0 .. kc)[0 .. nc) (b points at the panel's first entry) into packed slivers:
// sliver s holds columns 8s .. 8s+8 as packed[s*kc*8 + p*8 + (0..8)], zero-padded past nc.
inline void nn_pack_b(int kc, int nc, const float* b, int ldb, float* packed) {
  for (int j = 0; j < nc; j += kNnNR) {
    const int w = min_int(kNnNR, nc - j);
    const float* src = b + j;
    float* dst = packed + static_cast<std::ptrdiff_t>(j) * kc;
    if (w == kNnNR) {
      for (int p = 0; p < kc; ++p, src += ldb, dst += kNnNR) {
        wasm_v128_store(dst, wasm_v128_load(src));
        wasm_v128_store(dst + 4, wasm_v128_load(src + 4));
      }
    } else {
      for (int p = 0; p < kc; ++p, src += ldb, dst += kNnNR) {
        for (int q = 0; q < kNnNR; ++q) dst[q] = q < w ? src[q] : 0.0f;
      }
    }
  }
}

// Loads C[0 .. w) into two vectors (lanes past w are 0), w in 1..8, reading nothing past w.
inline void load_row8(const float* c, int w, v128_t& lo, v128_t& hi) {
  if (w == 8) {
    lo = wasm_v128_load(c);
    hi = wasm_v128_load(c + 4);
  } else if (w >= 4) {
    lo = wasm_v128_load(c);
    hi = w > 4 ? load_partial(c + 4, w - 4) : wasm_f32x4_splat(0.0f);
  } else {
    lo = load_partial(c, w);
    hi = wasm_f32x4_splat(0.0f);
  }
}

// Stores lanes 0 .. w of (lo, hi) to C[0 .. w), w in 1..8, writing nothing past w.
inline void store_row8(float* c, int w, v128_t lo, v128_t hi) {
  if (w == 8) {
    wasm_v128_store(c, lo);
    wasm_v128_store(c + 4, hi);
  } else if (w >= 4) {
    wasm_v128_store(c, lo);
    if (w > 4) store_partial(c + 4, hi, w - 4);
  } else {
    store_partial(c, lo, w);
  }
}

// One MR x 8 tile over kc values of p: C[0..MR)[0..w) (+)= A[0..MR)[0..kc) * sliver.
// a points at A[i][pc], bs at the packed sliver, c at C[i][j]; w = valid columns (1..8).
// The loops over r have compile-time bounds, so clang unrolls them and keeps acc[][] in
// registers (checked in the generated wasm: no stack traffic in the p loop).
template <int MR>
inline void nn_tile(int kc, const float* a, int lda, const float* bs, float* c, int ldc, int w,
                    bool accumulate) {
  v128_t acc[MR][2];
  for (int r = 0; r < MR; ++r) {
    if (accumulate) {
      load_row8(c + off(r, ldc), w, acc[r][0], acc[r][1]);
    } else {
      acc[r][0] = acc[r][1] = wasm_f32x4_splat(0.0f);
    }
  }
  const float* ar[MR];
  for (int r = 0; r < MR; ++r) ar[r] = a + off(r, lda);
  for (int p = 0; p < kc; ++p, bs += kNnNR) {
    const v128_t b0 = wasm_v128_load(bs);
    const v128_t b1 = wasm_v128_load(bs + 4);
    for (int r = 0; r < MR; ++r) {
      const v128_t av = wasm_f32x4_splat(ar[r][p]);
      acc[r][0] = wasm_f32x4_add(acc[r][0], wasm_f32x4_mul(av, b0));
      acc[r][1] = wasm_f32x4_add(acc[r][1], wasm_f32x4_mul(av, b1));
    }
  }
  for (int r = 0; r < MR; ++r) store_row8(c + off(r, ldc), w, acc[r][0], acc[r][1]);
}

// MR rows of A against all slivers of the packed panel.
template <int MR>
void nn_row_block(int kc, int nc, const float* a, int lda, const float* packed, float* c,
                  int ldc, bool accumulate) {
  for (int j = 0; j < nc; j += kNnNR) {
    nn_tile<MR>(kc, a, lda, packed + static_cast<std::ptrdiff_t>(j) * kc, c + j, ldc,
                min_int(kNnNR, nc - j), accumulate);
  }
}

// ---------------------------------------------------------------------------------------
// softmax: vectorised exp
// ---------------------------------------------------------------------------------------
//
// exp(x) for x <= 0 (the softmax only ever exponentiates x - max <= 0), four lanes at once.
//
// 1. Range reduction. Write x = n ln2 + r with integer n = round(x / ln2), so
//    |r| <= ln2 / 2 ~= 0.347 and exp(x) = 2^n * exp(r). The subtraction r = x - n ln2 must be
//    nearly exact, or its error is amplified into exp's relative error: ln2 is split
//    (Cody & Waite) as kLn2Hi + kLn2Lo, where kLn2Hi = 0.693359375 has only 9 significant
//    bits, so n * kLn2Hi is exact for |n| < 2^15 and x - n * kLn2Hi is exact (Sterbenz:
//    the two are within a factor 2). Only the tiny correction n * kLn2Lo is rounded.
// 2. exp(r) on [-0.347, 0.347] as the degree-5 polynomial 1 + C1 r + ... + C5 r^5
//    (XNNPACK's "rr2-p5" minimax coefficients kC1..kC5), evaluated by Estrin's scheme:
//    (1 + C1 r) + r^2 (C2 + C3 r) + r^4 (C4 + C5 r). The three pairs and r^2, r^4 are
//    independent, so the longest chain of dependent operations is 5 deep instead of
//    Horner's 10. That matters here more than the operation count (one multiply more):
//    the loop is bound by latency, since V8 emits each vector's exponential as one chain
//    (interleaving two vectors in the source is undone by clang's expression trees) and
//    the core's out-of-order window holds only about three vectors' chains. Measured in
//    Node 20: 0.91x Horner's time per exponential. Within the test's 3e-7 relative
//    (tests/core/test_kernels.cpp, dense grid over [-87, 0]: worst 1.1e-7 for exp itself,
//    1.7e-7 for the weight it gives).
//    At x = 0 it gives exactly 1 (n = 0, r = 0), so the row maximum always gets weight
//    numerator exactly 1. (The first version used Cephes' degree-7 expf polynomial.)
// 3. 2^n is built directly in the exponent field: a float with sign 0, biased exponent
//    n + 127 and zero mantissa is exactly 2^n, i.e. the integer (n + 127) << 23.
//    That is valid for n + 127 in [1, 254]; and for n + 127 = 0 the bits are all zero,
//    which is the float +0: "2^-127" comes out as exactly 0. Below that the bits would
//    be garbage. Hence
// 4. the clamp: x is raised to at least kExpLo = -88, where x log2 e = -126.96 rounds to
//    n = -127, so every x <= -87.68 (x log2 e <= -126.5) gets 2^n = +0 and the result
//    exactly 0 (its true exp is below 1.6e-38, nothing that matters for a softmax weight),
//    and every x above gets n >= -126, a valid 2^n. That is how -inf (masked entries)
//    gives exactly 0, and how a huge negative difference such as -2e30 gives 0 without
//    ever feeding a huge value to the rounding. Between -87.68 and -87.34 the result is a
//    subnormal 2^-126 exp(r), as it should be. Earlier versions clamped at -126 ln 2 and
//    zeroed the lanes below with a mask computed before the clamp: a compare and a
//    select more per vector, which V8 lowers to 4 instructions and a spilled constant;
//    measured 1.15 -> 0.97-1.0 ns per exponential of the softmax numerators (Node 20).
//    (The scalar twin's std::exp would instead return subnormals down to about -103.9; the
//    difference is below 1.6e-38 in absolute value.)
// NaN inputs are not expected (callers validate); pmax(lo, NaN) = lo, so they give 0.
constexpr float kExpLo = -88.0f;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f;
constexpr float kLn2Lo = -2.12194440e-4f;
constexpr float kC1 = 0x1.FFFFF6p-1f;
constexpr float kC2 = 0x1.FFFDC6p-2f;
constexpr float kC3 = 0x1.555A80p-3f;
constexpr float kC4 = 0x1.573A1Ap-5f;
constexpr float kC5 = 0x1.0F9F9Cp-7f;
// 1.5 * 2^23 + 127: see the rounding step in exp_nonpositive.
constexpr float kRoundMagic = 12583039.0f;

inline v128_t exp_nonpositive(v128_t x) {
  // pmax(lo, x) = (lo < x) ? x : lo, a plain maxps on x86 (the IEEE-style f32x4.max needs
  // extra instructions for NaN and signed-zero cases); -inf and NaN give lo.
  x = wasm_f32x4_pmax(wasm_f32x4_splat(kExpLo), x);

  // n = round(x / ln2) by the "magic number" trick: adding 1.5 * 2^23 + 127 to x log2(e)
  // (which lies in [-127, 0] after the clamp) leaves round(x log2 e) + 127 in the low
  // mantissa bits, since the float's unit in the last place there is exactly 1. This
  // replaces f32x4.nearest and f32x4 -> i32x4 conversion, which V8 lowers on x86 to long
  // fix-up sequences (saturating truncation has no single SSE instruction).
  const v128_t magic = wasm_f32x4_splat(kRoundMagic);
  const v128_t biased = wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(kLog2e)), magic);
  // 2^n: the low bits (n + 127) shifted into the exponent field; n + 127 = 0 gives +0.
  const v128_t pow2n = wasm_i32x4_shl(biased, 23);
  const v128_t fn = wasm_f32x4_sub(biased, magic);  // n, exactly, as a float
  // r = x - n ln2 (Cody-Waite, see above). kLn2Lo is negative, so this adds n * |kLn2Lo|.
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(fn, wasm_f32x4_splat(kLn2Hi)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(fn, wasm_f32x4_splat(kLn2Lo)));

  // exp(r) = (1 + C1 r) + r^2 (C2 + C3 r) + r^4 (C4 + C5 r), Estrin's scheme (step 2).
  const v128_t r2 = wasm_f32x4_mul(r, r);
  const v128_t p01 = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(kC1), r), wasm_f32x4_splat(1.0f));
  const v128_t p23 = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(kC3), r), wasm_f32x4_splat(kC2));
  const v128_t p45 = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(kC5), r), wasm_f32x4_splat(kC4));
  const v128_t r4 = wasm_f32x4_mul(r2, r2);
  const v128_t poly = wasm_f32x4_add(wasm_f32x4_mul(p45, r4), wasm_f32x4_add(wasm_f32x4_mul(p23, r2), p01));

  return wasm_f32x4_mul(poly, pow2n);
}

// Sum of the four lanes, in the scalar twin's order (x0 + x2) + (x1 + x3).
inline float hsum(v128_t x) {
  const v128_t t = wasm_f32x4_add(x, wasm_i32x4_shuffle(x, x, 2, 3, 0, 1));  // x0+x2, x1+x3
  return wasm_f32x4_extract_lane(t, 0) + wasm_f32x4_extract_lane(t, 1);
}

// Horizontal maximum of four lanes (no NaNs).
inline float hmax(v128_t x) {
  x = wasm_f32x4_pmax(x, wasm_i32x4_shuffle(x, x, 2, 3, 0, 1));
  x = wasm_f32x4_pmax(x, wasm_i32x4_shuffle(x, x, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(x, 0);
}

}  // namespace

void gemm_nn_f32_wasmsimd(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                          float* c, int ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    // An empty sum: C = 0. (The panel loop below would not run and leave C untouched.)
    for (int i = 0; i < m; ++i) {
      float* ci = c + off(i, ldc);
      for (int j = 0; j < n; ++j) ci[j] = 0.0f;
    }
    return;
  }
  alignas(16) float packed[kNnKC * kNnNC];
  for (int jc = 0; jc < n; jc += kNnNC) {
    const int nc = min_int(kNnNC, n - jc);
    for (int pc = 0; pc < k; pc += kNnKC) {
      const int kc = min_int(kNnKC, k - pc);
      const bool accumulate = pc > 0;  // first depth panel overwrites C, later ones add to it
      nn_pack_b(kc, nc, b + off(pc, ldb) + jc, ldb, packed);
      int i = 0;
      for (; i + kNnMR <= m; i += kNnMR) {
        nn_row_block<kNnMR>(kc, nc, a + off(i, lda) + pc, lda, packed, c + off(i, ldc) + jc, ldc,
                            accumulate);
      }
      // m % 4 leftover rows, as one narrower block.
      const float* ai = a + off(i, lda) + pc;
      float* ci = c + off(i, ldc) + jc;
      switch (m - i) {
        case 3:
          nn_row_block<3>(kc, nc, ai, lda, packed, ci, ldc, accumulate);
          break;
        case 2:
          nn_row_block<2>(kc, nc, ai, lda, packed, ci, ldc, accumulate);
          break;
        case 1:
          nn_row_block<1>(kc, nc, ai, lda, packed, ci, ldc, accumulate);
          break;
        default:
          break;
      }
    }
  }
}

// Two passes per row, as in the scalar twin (see kernels_scalar.cpp for why the maximum is
// subtracted): max, then exp-and-sum. Each pass runs over whole vectors and then one
// partial vector of cols % 4 lanes, loaded and stored lane-wise so that nothing past the row
// is touched. Missing lanes are filled with -inf, which is neutral for the max and gives
// exp = 0 for the sum. Returns the row's sum (0 for a fully masked row, set to zeros).
namespace {
inline float softmax_numerators_row(int cols, float* xr, v128_t tail_mask) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  const v128_t vneg_inf = wasm_f32x4_splat(neg_inf);
  const int full = cols & ~3;
  const int rest = cols - full;

  // Pass 1: row maximum. Four running maxima, one per lane, then combined.
  v128_t vmax = vneg_inf;
  for (int j = 0; j < full; j += 4) vmax = wasm_f32x4_pmax(vmax, wasm_v128_load(xr + j));
  if (rest) {
    const v128_t t = wasm_v128_bitselect(load_partial(xr + full, rest), vneg_inf, tail_mask);
    vmax = wasm_f32x4_pmax(vmax, t);
  }
  const float mx = hmax(vmax);
  if (mx == neg_inf) {
    // Fully masked row: attends to nothing.
    const v128_t zero = wasm_f32x4_splat(0.0f);
    for (int j = 0; j < full; j += 4) wasm_v128_store(xr + j, zero);
    if (rest) store_partial(xr + full, zero, rest);
    return 0.0f;
  }

  // Pass 2: e = exp(x - max), stored in place, and their sum (four lane sums).
  const v128_t vmx = wasm_f32x4_splat(mx);
  v128_t vsum = wasm_f32x4_splat(0.0f);
  for (int j = 0; j < full; j += 4) {
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(xr + j), vmx));
    wasm_v128_store(xr + j, e);
    vsum = wasm_f32x4_add(vsum, e);
  }
  if (rest) {
    const v128_t t = wasm_v128_bitselect(load_partial(xr + full, rest), vneg_inf, tail_mask);
    const v128_t e = exp_nonpositive(wasm_f32x4_sub(t, vmx));  // padding lanes: exp(-inf) = 0
    store_partial(xr + full, e, rest);
    vsum = wasm_f32x4_add(vsum, e);
  }
  // sum >= 1 because the maximum contributes exp(0) = 1.
  return hsum(vsum);
}
}  // namespace

void softmax_numerators_f32_wasmsimd(int rows, int cols, float* x, int ld, float* sums) {
  if (rows <= 0) return;
  const v128_t tail_mask = lane_mask(cols & 3);
  for (int row = 0; row < rows; ++row) {
    sums[row] = cols <= 0 ? 0.0f : softmax_numerators_row(cols, x + off(row, ld), tail_mask);
  }
}

// The numerators, then pass 3: normalise by one reciprocal per row.
void softmax_rows_f32_wasmsimd(int rows, int cols, float* x, int ld) {
  if (rows <= 0 || cols <= 0) return;
  const int full = cols & ~3;
  const int rest = cols - full;
  const v128_t tail_mask = lane_mask(rest);
  for (int row = 0; row < rows; ++row) {
    float* xr = x + off(row, ld);
    const float sum = softmax_numerators_row(cols, xr, tail_mask);
    if (sum == 0.0f) continue;  // fully masked: already zeros
    const v128_t vinv = wasm_f32x4_splat(1.0f / sum);
    for (int j = 0; j < full; j += 4) {
      wasm_v128_store(xr + j, wasm_f32x4_mul(wasm_v128_load(xr + j), vinv));
    }
    if (rest) store_partial(xr + full, wasm_f32x4_mul(load_partial(xr + full, rest), vinv), rest);
  }
}

// Finiteness by the exponent field, four lanes at once: (bits & 0x7F800000) == 0x7F800000
// marks infinity or NaN. The flags of a row are OR-ed into one vector and tested once per
// row (three SIMD instructions per vector, against a branchy scalar test per entry). The
// partial vector at the row's end is loaded lane-wise with zeros in the missing lanes, and
// zero is finite, so nothing past the row is read or counted.
bool all_finite_f32_wasmsimd(int rows, int cols, const float* x, int ld) {
  const v128_t exponent = wasm_i32x4_splat(0x7F800000);
  const int full = cols & ~3;
  const int rest = cols - full;
  for (int r = 0; r < rows; ++r) {
    const float* xr = x + off(r, ld);
    v128_t bad = wasm_i32x4_splat(0);
    for (int j = 0; j < full; j += 4) {
      bad = wasm_v128_or(bad, wasm_i32x4_eq(wasm_v128_and(wasm_v128_load(xr + j), exponent), exponent));
    }
    if (rest) bad = wasm_v128_or(bad, wasm_i32x4_eq(wasm_v128_and(load_partial(xr + full, rest), exponent), exponent));
    if (wasm_v128_any_true(bad)) return false;
  }
  return true;
}

}  // namespace mha

#endif  // defined(__wasm_simd128__)
