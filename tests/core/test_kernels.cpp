// Tests of the numeric kernels (core/include/mha/kernels.hpp).
//
// Every float kernel is compared with the double-precision reference, and every SIMD kernel
// (only in builds that target WebAssembly SIMD128) also with its scalar twin, over:
//   * all shapes with m, n, k (or rows, cols) in 0..17, which covers every tail length of
//     the 4 x 8 register tile and of 4-lane vectors, plus larger shapes that cross
//     the cache-block boundaries;
//   * tight layouts (leading dimension = row length, 16-byte-aligned base) and padded ones
//     (leading dimension larger than the row, base 1..3 floats past a 16-byte boundary);
// and the softmax over its edge cases (masking, fully masked rows, huge logits, cols 0/1).
//
// Out-of-bounds detection: each matrix lives in a buffer whose padding (the gap between the
// end of a row and the start of the next) and guard zones (before the first and after the
// last entry) are filled with a NaN with a recognisable payload. A kernel that *uses* a
// padding value gets NaN in its output; a kernel that *writes* outside the logical entries
// changes the payload. Output matrices start out entirely NaN, so a kernel that accumulates
// into C instead of overwriting it is caught as well.
//
// Random numbers come from a fixed-seed xorshift and are converted to floats by hand, so
// that the native (libstdc++) and wasm (libc++) builds test exactly the same inputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "mha/kernels.hpp"
#include "test_support.hpp"

namespace {

using GemmNn = decltype(&mha::gemm_nn_f32_scalar);
using Softmax = decltype(&mha::softmax_rows_f32_scalar);

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kFltEps = std::numeric_limits<float>::epsilon();  // 2^-23

// Deterministic random numbers: mha_test::Xorshift (test_support.hpp), the same sequence
// natively and in wasm.
using XorShift64 = mha_test::Xorshift;

// ---------------------------------------------------------------------------------------
// Strided matrices with poisoned padding and guards
// ---------------------------------------------------------------------------------------

constexpr std::uint32_t kPoisonBits = 0x7FC0DEADu;  // quiet NaN, payload 0xDEAD

float poison() {
  float f;
  std::memcpy(&f, &kPoisonBits, sizeof f);
  return f;
}

bool is_poison(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u == kPoisonBits;
}

// rows x cols floats, row-major with leading dimension ld, whose first entry lies
// `misalign` floats past a 16-byte boundary. Only the span actually covered by the rows is
// inside the matrix ((rows - 1) * ld + cols floats); everything else in the buffer is poison.
class StridedMatrix {
 public:
  StridedMatrix(int rows, int cols, int ld, int misalign)
      : rows_(rows), cols_(cols), ld_(ld),
        span_(rows > 0 && cols > 0 ? static_cast<std::size_t>(rows - 1) * ld + cols : 0),
        storage_(span_ + 2 * kGuard + 8, poison()) {
    const auto addr = reinterpret_cast<std::uintptr_t>(storage_.data());
    const std::size_t to_boundary = ((16 - addr % 16) % 16) / sizeof(float);  // 0..3
    begin_ = to_boundary + kGuard + static_cast<std::size_t>(misalign);
  }

  // Move-only: a copy would land at a different address and so lose the misalignment
  // (moving a std::vector keeps its buffer).
  StridedMatrix(const StridedMatrix&) = delete;
  StridedMatrix& operator=(const StridedMatrix&) = delete;
  StridedMatrix(StridedMatrix&&) = default;
  StridedMatrix& operator=(StridedMatrix&&) = default;

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int ld() const { return ld_; }
  float* data() { return storage_.data() + begin_; }
  const float* data() const { return storage_.data() + begin_; }
  float& at(int i, int j) { return data()[static_cast<std::size_t>(i) * ld_ + j]; }
  float at(int i, int j) const { return data()[static_cast<std::size_t>(i) * ld_ + j]; }

  // The logical entries as doubles, dense with the same leading dimension (padding 0).
  std::vector<double> to_double(bool absolute = false) const {
    std::vector<double> out(static_cast<std::size_t>(rows_) * (ld_ > 0 ? ld_ : 1), 0.0);
    for (int i = 0; i < rows_; ++i) {
      for (int j = 0; j < cols_; ++j) {
        const double v = at(i, j);
        out[static_cast<std::size_t>(i) * ld_ + j] = absolute ? std::fabs(v) : v;
      }
    }
    return out;
  }

  // True if every float outside the logical entries still holds the poison pattern.
  bool outside_untouched() const {
    for (std::size_t idx = 0; idx < storage_.size(); ++idx) {
      bool logical = false;
      if (idx >= begin_ && idx < begin_ + span_) {
        const std::size_t d = idx - begin_;
        logical = static_cast<int>(d % static_cast<std::size_t>(ld_)) < cols_;
      }
      if (!logical && !is_poison(storage_[idx])) return false;
    }
    return true;
  }

 private:
  static constexpr std::size_t kGuard = 16;  // floats; a multiple of 4 keeps the alignment
  int rows_, cols_, ld_;
  std::size_t span_;
  std::vector<float> storage_;
  std::size_t begin_ = 0;
};

void fill_random(StridedMatrix& x, XorShift64& rng, bool wide_range) {
  for (int i = 0; i < x.rows(); ++i) {
    for (int j = 0; j < x.cols(); ++j) {
      float v = rng.uniform(-1.0f, 1.0f);
      // Optionally spread the magnitudes over 2^-8 .. 2^8, so that the error bound has to
      // follow the values and not a fixed absolute scale.
      if (wide_range) v = std::ldexp(v, rng.below(17) - 8);
      x.at(i, j) = v;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Shapes and layouts
// ---------------------------------------------------------------------------------------

struct Layout {
  int pad_a, pad_b, pad_c;     // leading dimension minus row length
  int off_a, off_b, off_c;     // floats past a 16-byte boundary
};

constexpr Layout kTight{0, 0, 0, 0, 0, 0};

// A padded, misaligned layout, varied with a counter so that every pad in 1..5 and every
// offset in 1..3 occurs for every operand.
Layout padded_layout(int counter) {
  return Layout{1 + counter % 5, 1 + (counter + 2) % 5, 1 + (counter + 4) % 5,
                1 + counter % 3, 1 + (counter + 1) % 3, 1 + (counter + 2) % 3};
}

std::string describe(const char* what, int m, int n, int k, const Layout& l) {
  std::ostringstream os;
  os << what << " m=" << m << " n=" << n << " k=" << k << " pads(a,b,c)=" << l.pad_a << ","
     << l.pad_b << "," << l.pad_c << " offsets(a,b,c)=" << l.off_a << "," << l.off_b << ","
     << l.off_c;
  return os.str();
}

struct Shape {
  int m, n, k;
};

// Larger shapes: the attention sizes (64 x 512 x 64, 256 x 256 x 64), and shapes that cross
// the SIMD kernels' cache panels (k > 256, n > 128, n > one 8-column sliver) with
// tails in every dimension.
const std::vector<Shape>& large_shapes() {
  static const std::vector<Shape> shapes{{64, 512, 64}, {256, 256, 64}, {33, 261, 517},
                                         {5, 130, 300}, {9, 23, 1030},  {18, 75, 257}};
  return shapes;
}

// ---------------------------------------------------------------------------------------
// Result comparison
// ---------------------------------------------------------------------------------------

// Largest ratio |got - want| / tol over the logical entries (<= 1 passes), with the first
// entry that attains it, for the failure message. NaN counts as a failure.
struct Violation {
  double worst = 0.0;
  int i = -1, j = -1;
  double got = 0.0, want = 0.0, tol = 0.0;
  bool ok() const { return worst <= 1.0; }
  std::string str() const {
    std::ostringstream os;
    os.precision(9);
    os << "worst |got-want|/tol = " << worst << " at (" << i << "," << j << "): got " << got
       << " want " << want << " tol " << tol;
    return os.str();
  }
  void add(int ii, int jj, double g, double w, double t) {
    const double d = std::fabs(g - w);
    double ratio;
    if (!(d == d)) {
      ratio = std::numeric_limits<double>::infinity();  // NaN
    } else if (t > 0.0) {
      ratio = d / t;
    } else {
      ratio = d == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
    }
    if (ratio > worst) {
      worst = ratio;
      i = ii;
      j = jj;
      got = g;
      want = w;
      tol = t;
    }
  }
};

// ---------------------------------------------------------------------------------------
// gemm_nn
// ---------------------------------------------------------------------------------------

// Rounding-error bound of a float dot product of length k computed by any summation order:
// |fl(sum) - sum| <= gamma_k * sum_p |a_p b_p|, gamma_k ~= k u, u = 2^-24. The tests allow
// k * FLT_EPSILON = 2 k u times the bound (a margin of 2), computed in double.
struct GemmNnProblem {
  int m, n, k;
  Layout layout;
  StridedMatrix a, b;
  std::vector<double> want, bound;

  GemmNnProblem(int m_, int n_, int k_, const Layout& l, std::uint64_t seed, bool wide_range)
      : m(m_), n(n_), k(k_), layout(l), a(m_, k_, k_ + l.pad_a, l.off_a),
        b(k_, n_, n_ + l.pad_b, l.off_b) {
    XorShift64 rng(static_cast<std::uint32_t>(seed ^ (seed >> 32)));
    fill_random(a, rng, wide_range);
    fill_random(b, rng, wide_range);
    const int ldc = n + layout.pad_c;
    want.assign(static_cast<std::size_t>(m) * (ldc > 0 ? ldc : 1), 0.0);
    bound = want;
    const std::vector<double> ad = a.to_double(), bd = b.to_double();
    const std::vector<double> aa = a.to_double(true), ba = b.to_double(true);
    mha::gemm_nn_f64_reference(m, n, k, ad.data(), a.ld(), bd.data(), b.ld(), want.data(), ldc);
    mha::gemm_nn_f64_reference(m, n, k, aa.data(), a.ld(), ba.data(), b.ld(), bound.data(), ldc);
  }

  StridedMatrix run(GemmNn fn) const {
    StridedMatrix c(m, n, n + layout.pad_c, layout.off_c);  // all NaN before the call
    fn(m, n, k, a.data(), a.ld(), b.data(), b.ld(), c.data(), c.ld());
    return c;
  }

  double tol(int i, int j) const {
    return kFltEps * k * bound[static_cast<std::size_t>(i) * (n + layout.pad_c) + j];
  }
  double ref(int i, int j) const {
    return want[static_cast<std::size_t>(i) * (n + layout.pad_c) + j];
  }
};

// Checks fn against the reference and, if twin is given, against the twin (allowed to
// differ by the sum of both tolerances).
void check_gemm_nn_shape(GemmNn fn, GemmNn twin, int m, int n, int k, const Layout& l,
                         std::uint64_t seed, bool wide_range = false) {
  const GemmNnProblem prob(m, n, k, l, seed, wide_range);
  const StridedMatrix c = prob.run(fn);
  Violation vs_ref;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) vs_ref.add(i, j, c.at(i, j), prob.ref(i, j), prob.tol(i, j));
  }
  INFO(describe("gemm_nn", m, n, k, l) << (wide_range ? " wide range" : ""));
  INFO("vs f64 reference: " << vs_ref.str());
  CHECK(vs_ref.ok());
  INFO("poison outside C");
  CHECK(c.outside_untouched());
  if (twin != nullptr) {
    const StridedMatrix ct = prob.run(twin);
    Violation vs_twin;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) vs_twin.add(i, j, c.at(i, j), ct.at(i, j), 2 * prob.tol(i, j));
    }
    INFO("vs scalar twin: " << vs_twin.str());
    CHECK(vs_twin.ok());
  }
}

void check_gemm_nn_all(GemmNn fn, GemmNn twin) {
  int counter = 0;
  for (int m = 0; m <= 17; ++m) {
    for (int n = 0; n <= 17; ++n) {
      for (int k = 0; k <= 17; ++k) {
        const std::uint64_t seed = 1000003ull * (m + 1) + 1009ull * (n + 1) + (k + 1);
        check_gemm_nn_shape(fn, twin, m, n, k, kTight, seed);
        check_gemm_nn_shape(fn, twin, m, n, k, padded_layout(counter++), seed + 7);
      }
    }
  }
  for (const Shape& s : large_shapes()) {
    check_gemm_nn_shape(fn, twin, s.m, s.n, s.k, kTight, 42 + s.k);
    check_gemm_nn_shape(fn, twin, s.m, s.n, s.k, padded_layout(counter++), 43 + s.k);
    check_gemm_nn_shape(fn, twin, s.m, s.n, s.k, padded_layout(counter++), 44 + s.k, true);
  }
}

// ---------------------------------------------------------------------------------------
// softmax
// ---------------------------------------------------------------------------------------

constexpr double kSoftmaxAbsTol = 1e-6;  // per weight
constexpr double kRowSumTol = 1e-5;      // |sum of a row's weights - 1|

struct SoftmaxCheck {
  Violation vs_ref;           // |w - ref| <= 1e-6 per weight
  Violation vs_twin;          // |w - twin| <= 2e-6 per weight
  bool masked_exact = true;   // every -inf input became exactly 0
  bool finite = true;         // every weight finite and in [0, 1]
  bool fully_masked_zero = true;
  double worst_sum_error = 0.0;  // over rows with at least one finite logit
  bool outside_untouched = true;
};

// Runs fn (and twin, if given) on a copy of x and checks the result against the double
// reference and the softmax invariants.
SoftmaxCheck run_softmax_check(Softmax fn, Softmax twin, const StridedMatrix& logits,
                               int misalign) {
  const int rows = logits.rows(), cols = logits.cols(), ld = logits.ld();
  std::vector<double> ref = logits.to_double();
  mha::softmax_rows_f64_reference(rows, cols, ref.data(), ld);

  auto copy = [&](const StridedMatrix& src) {
    StridedMatrix dst(rows, cols, ld, misalign);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) dst.at(i, j) = src.at(i, j);
    }
    return dst;
  };
  StridedMatrix w = copy(logits);
  fn(rows, cols, w.data(), ld);

  SoftmaxCheck r;
  r.outside_untouched = w.outside_untouched();
  for (int i = 0; i < rows; ++i) {
    bool any_finite = false;
    double sum = 0.0;
    for (int j = 0; j < cols; ++j) {
      const float in = logits.at(i, j);
      const float out = w.at(i, j);
      any_finite = any_finite || in != -kInf;
      if (!(std::isfinite(out) && out >= 0.0f && out <= 1.0f)) r.finite = false;
      if (in == -kInf && out != 0.0f) r.masked_exact = false;
      r.vs_ref.add(i, j, out, ref[static_cast<std::size_t>(i) * ld + j], kSoftmaxAbsTol);
      sum += out;
    }
    if (any_finite) {
      const double e = std::fabs(sum - 1.0);
      if (!(e <= r.worst_sum_error)) r.worst_sum_error = e;  // NaN propagates as a failure
    } else {
      for (int j = 0; j < cols; ++j) {
        if (w.at(i, j) != 0.0f) r.fully_masked_zero = false;
      }
    }
  }
  if (twin != nullptr) {
    StridedMatrix wt = copy(logits);
    twin(rows, cols, wt.data(), ld);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        r.vs_twin.add(i, j, w.at(i, j), wt.at(i, j), 2 * kSoftmaxAbsTol);
      }
    }
  }
  return r;
}

void require_softmax_ok(const SoftmaxCheck& r, bool with_twin) {
  INFO("vs f64 reference: " << r.vs_ref.str());
  CHECK(r.vs_ref.ok());
  CHECK(r.masked_exact);
  CHECK(r.finite);
  CHECK(r.fully_masked_zero);
  CHECK(r.worst_sum_error <= kRowSumTol);
  CHECK(r.outside_untouched);
  if (with_twin) {
    INFO("vs scalar twin: " << r.vs_twin.str());
    CHECK(r.vs_twin.ok());
  }
}

// Random logits uniform in [-scale, scale]; each entry masked with probability
// mask_permille / 1000; each row fully masked with probability 1/8.
StridedMatrix random_logits(int rows, int cols, int ld, int misalign, float scale,
                            int mask_permille, std::uint64_t seed) {
  XorShift64 rng(static_cast<std::uint32_t>(seed ^ (seed >> 32)));
  StridedMatrix x(rows, cols, ld, misalign);
  for (int i = 0; i < rows; ++i) {
    const bool fully_masked = rng.below(8) == 0;
    for (int j = 0; j < cols; ++j) {
      const float v = rng.uniform(-scale, scale);
      x.at(i, j) = (fully_masked || rng.below(1000) < mask_permille) ? -kInf : v;
    }
  }
  return x;
}

void check_softmax_all(Softmax fn, Softmax twin) {
  int counter = 0;
  for (int rows = 0; rows <= 5; ++rows) {
    for (int cols = 0; cols <= 17; ++cols) {
      for (int variant = 0; variant < 2; ++variant) {
        const int pad = variant == 0 ? 0 : 1 + counter % 5;
        const int misalign = variant == 0 ? 0 : 1 + counter % 3;
        ++counter;
        const std::uint64_t seed = 3000017ull * (rows + 1) + 31ull * (cols + 1) + variant;
        const StridedMatrix x = random_logits(rows, cols, cols + pad, misalign, 8.0f, 150, seed);
        INFO("softmax rows=" << rows << " cols=" << cols << " ld=" << cols + pad
                             << " misalign=" << misalign);
        require_softmax_ok(run_softmax_check(fn, twin, x, misalign), twin != nullptr);
      }
    }
  }
  // Long rows (attention over 512 and 1000 positions), and logits spread far enough
  // (+/-100) that many exponentials underflow.
  struct Case {
    int rows, cols, pad, misalign;
    float scale;
    int mask_permille;
  };
  const Case cases[] = {{64, 512, 0, 0, 8.0f, 100}, {64, 512, 3, 1, 30.0f, 0},
                        {3, 1000, 1, 2, 100.0f, 300}, {7, 33, 2, 3, 1.0f, 900},
                        {16, 255, 0, 0, 1e4f, 50}};
  for (const Case& c : cases) {
    const StridedMatrix x = random_logits(c.rows, c.cols, c.cols + c.pad, c.misalign, c.scale,
                                          c.mask_permille, 99 + c.cols);
    INFO("softmax rows=" << c.rows << " cols=" << c.cols << " pad=" << c.pad
                         << " scale=" << c.scale);
    require_softmax_ok(run_softmax_check(fn, twin, x, c.misalign), twin != nullptr);
  }
}

// The kernel sets this build has: scalar always, wasmsimd in SIMD128 builds.
std::vector<const mha::KernelSet*> sets_under_test() {
  std::vector<const mha::KernelSet*> sets{&mha::scalar_kernels()};
  if (mha::wasmsimd_kernels() != nullptr) sets.push_back(mha::wasmsimd_kernels());
  return sets;
}

// Applies fn to a single row of logits and returns the weights.
std::vector<float> softmax_row(Softmax fn, std::vector<float> row) {
  fn(1, static_cast<int>(row.size()), row.data(), static_cast<int>(row.size()));
  return row;
}

// Softmax of the two-entry rows [0, t] for each t, as one rows x 2 matrix: the second weight
// of row i is e^t / (1 + e^t), so e^t itself is w1 / w0 (the exponential tests use this).
std::vector<float> softmax_of_pairs(const mha::KernelSet& ks, const std::vector<float>& t) {
  std::vector<float> x;
  for (float v : t) {
    x.push_back(0.0f);
    x.push_back(v);
  }
  ks.softmax_rows(static_cast<int>(t.size()), 2, x.data(), 2);
  return x;
}

// The softmax numerators kernel followed by the division it leaves out: must be a softmax.
// (One instantiation per kernel, so that it fits the Softmax function-pointer type.)
template <void (*Numerators)(int, int, float*, int, float*)>
void numerators_then_divide(int rows, int cols, float* x, int ld) {
  std::vector<float> sums(static_cast<std::size_t>(rows > 0 ? rows : 0));
  Numerators(rows, cols, x, ld, sums.data());
  for (int r = 0; r < rows; ++r) {
    const float inv = sums[static_cast<std::size_t>(r)] > 0 ? 1.0f / sums[static_cast<std::size_t>(r)] : 0.0f;
    for (int j = 0; j < cols; ++j) x[static_cast<std::ptrdiff_t>(r) * ld + j] *= inv;
  }
}

// The sums themselves against the double reference: relative 1e-6 (a sum of up to 1000
// terms in [0, 1], each within 3e-7), and exactly 0 for a fully masked row.
void check_numerator_sums(void (*numerators)(int, int, float*, int, float*)) {
  for (const int cols : {0, 1, 3, 4, 5, 17, 255, 512}) {
    for (const int misalign : {0, 2}) {
      const int rows = 9, ld = cols + misalign;
      const StridedMatrix x = random_logits(rows, cols, ld, misalign, 30.0f, 100, 7 + cols);
      std::vector<double> ref = x.to_double();
      std::vector<double> ref_sums(rows);
      mha::softmax_numerators_f64_reference(rows, cols, ref.data(), ld, ref_sums.data());
      StridedMatrix w(rows, cols, ld, misalign);
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) w.at(i, j) = x.at(i, j);
      std::vector<float> sums(rows + 1, -1.0f);  // sums[rows] is a guard
      numerators(rows, cols, w.data(), ld, sums.data());
      CAPTURE(cols, misalign);
      CHECK(w.outside_untouched());
      CHECK(sums[rows] == -1.0f);
      for (int i = 0; i < rows; ++i) {
        CAPTURE(i);
        if (ref_sums[i] == 0.0) {
          CHECK(sums[i] == 0.0f);
        } else {
          CHECK(std::fabs(sums[i] - ref_sums[i]) <= 1e-6 * ref_sums[i]);
          CHECK(ref_sums[i] >= 1.0);
        }
        for (int j = 0; j < cols; ++j) {
          CHECK(std::fabs(w.at(i, j) - ref[static_cast<std::size_t>(i) * ld + j]) <= kSoftmaxAbsTol);
        }
      }
    }
  }
}

}  // namespace

// =======================================================================================
// Scalar kernels vs the double-precision reference
// =======================================================================================

TEST_CASE("gemm_nn_f32_scalar matches the f64 reference", "[kernels][scalar][gemm]") {
  check_gemm_nn_all(&mha::gemm_nn_f32_scalar, nullptr);
}

TEST_CASE("softmax_rows_f32_scalar matches the f64 reference", "[kernels][scalar][softmax]") {
  check_softmax_all(&mha::softmax_rows_f32_scalar, nullptr);
}

TEST_CASE("softmax_numerators_f32_scalar, then the division, is the softmax; its sums match",
          "[kernels][scalar][softmax]") {
  check_softmax_all(&numerators_then_divide<&mha::softmax_numerators_f32_scalar>, nullptr);
  check_numerator_sums(&mha::softmax_numerators_f32_scalar);
}

// =======================================================================================
// SIMD128 kernels vs the reference and vs their scalar twins
// =======================================================================================

#if defined(__wasm_simd128__)

TEST_CASE("gemm_nn_f32_wasmsimd matches the reference and the scalar twin",
          "[kernels][wasmsimd][gemm]") {
  check_gemm_nn_all(&mha::gemm_nn_f32_wasmsimd, &mha::gemm_nn_f32_scalar);
}

TEST_CASE("softmax_rows_f32_wasmsimd matches the reference and the scalar twin",
          "[kernels][wasmsimd][softmax]") {
  check_softmax_all(&mha::softmax_rows_f32_wasmsimd, &mha::softmax_rows_f32_scalar);
}

TEST_CASE("softmax_numerators_f32_wasmsimd matches the reference and the scalar twin",
          "[kernels][wasmsimd][softmax]") {
  check_softmax_all(&numerators_then_divide<&mha::softmax_numerators_f32_wasmsimd>,
                    &numerators_then_divide<&mha::softmax_numerators_f32_scalar>);
  check_numerator_sums(&mha::softmax_numerators_f32_wasmsimd);
}

#endif  // defined(__wasm_simd128__)

// =======================================================================================
// Softmax edge cases, for every kernel set in this build
// =======================================================================================

TEST_CASE("softmax: masked entries become exactly 0", "[kernels][softmax]") {
  for (const mha::KernelSet* ks : sets_under_test()) {
    INFO("kernel set " << ks->target);
    const std::vector<float> w =
        softmax_row(ks->softmax_rows, {0.5f, -kInf, 2.0f, -kInf, -kInf, 1.0f, -1.0f, -kInf, 3.0f});
    CHECK(w[1] == 0.0f);
    CHECK(w[3] == 0.0f);
    CHECK(w[4] == 0.0f);
    CHECK(w[7] == 0.0f);
    double sum = 0.0;
    for (float v : w) sum += v;
    CHECK(std::fabs(sum - 1.0) <= kRowSumTol);
    // Masking must not change the other weights: same as the softmax of the unmasked ones.
    const std::vector<float> u = softmax_row(ks->softmax_rows, {0.5f, 2.0f, 1.0f, -1.0f, 3.0f});
    CHECK(std::fabs(w[0] - u[0]) <= kSoftmaxAbsTol);
    CHECK(std::fabs(w[2] - u[1]) <= kSoftmaxAbsTol);
    CHECK(std::fabs(w[5] - u[2]) <= kSoftmaxAbsTol);
    CHECK(std::fabs(w[6] - u[3]) <= kSoftmaxAbsTol);
    CHECK(std::fabs(w[8] - u[4]) <= kSoftmaxAbsTol);
  }
}

TEST_CASE("softmax: a fully masked row becomes all zeros", "[kernels][softmax]") {
  for (const mha::KernelSet* ks : sets_under_test()) {
    INFO("kernel set " << ks->target);
    for (int cols : {1, 2, 3, 4, 5, 7, 8, 9, 16, 17}) {
      INFO("cols=" << cols);
      // Row 0 fully masked, row 1 ordinary, row 2 fully masked: rows do not leak into each
      // other.
      std::vector<float> x(static_cast<std::size_t>(3) * cols, -kInf);
      for (int j = 0; j < cols; ++j) x[static_cast<std::size_t>(cols) + j] = 0.25f * j;
      ks->softmax_rows(3, cols, x.data(), cols);
      bool zeros = true, finite = true;
      double sum1 = 0.0;
      for (int j = 0; j < cols; ++j) {
        zeros = zeros && x[j] == 0.0f && x[static_cast<std::size_t>(2 * cols) + j] == 0.0f;
        finite = finite && std::isfinite(x[static_cast<std::size_t>(cols) + j]);
        sum1 += x[static_cast<std::size_t>(cols) + j];
      }
      CHECK(zeros);
      CHECK(finite);
      CHECK(std::fabs(sum1 - 1.0) <= kRowSumTol);
    }
  }
}

TEST_CASE("softmax: logits of +/-1e30 and up to FLT_MAX give finite weights summing to 1",
          "[kernels][softmax]") {
  const float big = 1e30f;
  const float fmax = std::numeric_limits<float>::max();
  for (const mha::KernelSet* ks : sets_under_test()) {
    INFO("kernel set " << ks->target);
    // Two maxima share the weight; -1e30 is 2e30 below them (finite in float) -> 0.
    std::vector<float> w = softmax_row(ks->softmax_rows, {big, -big, big, 0.0f, -big, 1.0f, -kInf});
    const std::vector<float> want{0.5f, 0.0f, 0.5f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (std::size_t j = 0; j < w.size(); ++j) {
      INFO("j=" << j);
      CHECK(std::isfinite(w[j]));
      CHECK(std::fabs(w[j] - want[j]) <= kSoftmaxAbsTol);
    }
    // All equal huge negative logits: uniform weights.
    w = softmax_row(ks->softmax_rows, std::vector<float>(6, -big));
    for (float v : w) CHECK(std::fabs(v - 1.0f / 6.0f) <= kSoftmaxAbsTol);
    // All equal huge positive logits: uniform weights.
    w = softmax_row(ks->softmax_rows, std::vector<float>(5, big));
    for (float v : w) CHECK(std::fabs(v - 0.2f) <= kSoftmaxAbsTol);
    // The extremes of float: -FLT_MAX - FLT_MAX overflows to -inf, which must still give 0.
    w = softmax_row(ks->softmax_rows, {fmax, -fmax, 0.0f, fmax, -fmax});
    CHECK(w[0] == 0.5f);
    CHECK(w[1] == 0.0f);
    CHECK(w[2] == 0.0f);
    CHECK(w[3] == 0.5f);
    CHECK(w[4] == 0.0f);
  }
}

TEST_CASE("softmax: one huge logit gives a one-hot row", "[kernels][softmax]") {
  for (const mha::KernelSet* ks : sets_under_test()) {
    INFO("kernel set " << ks->target);
    for (int cols : {2, 3, 4, 5, 8, 13}) {
      for (int hot = 0; hot < cols; ++hot) {
        INFO("cols=" << cols << " hot=" << hot);
        XorShift64 rng(static_cast<std::uint64_t>(cols * 100 + hot + 1));
        std::vector<float> x(static_cast<std::size_t>(cols));
        for (float& v : x) v = rng.uniform(-1.0f, 1.0f);
        x[static_cast<std::size_t>(hot)] = 1e30f;
        const std::vector<float> w = softmax_row(ks->softmax_rows, x);
        bool one_hot = true;
        for (int j = 0; j < cols; ++j) one_hot = one_hot && w[j] == (j == hot ? 1.0f : 0.0f);
        CHECK(one_hot);
      }
      // A gap of 200 is not infinite: the small weights are exp(-200) ~ 1e-87, below float.
      std::vector<float> x(static_cast<std::size_t>(cols), -100.0f);
      x[0] = 100.0f;
      const std::vector<float> w = softmax_row(ks->softmax_rows, x);
      CHECK(std::fabs(w[0] - 1.0f) <= kSoftmaxAbsTol);
      for (int j = 1; j < cols; ++j) CHECK(w[j] <= 1e-30f);
    }
  }
}

TEST_CASE("softmax: cols = 1, cols = 0 and rows = 0", "[kernels][softmax]") {
  for (const mha::KernelSet* ks : sets_under_test()) {
    INFO("kernel set " << ks->target);
    // cols = 1: any finite logit -> 1, a masked one -> 0. ld = 3 with poisoned padding.
    StridedMatrix x(4, 1, 3, 1);
    x.at(0, 0) = 0.0f;
    x.at(1, 0) = -1e30f;
    x.at(2, 0) = -kInf;
    x.at(3, 0) = 12345.0f;
    ks->softmax_rows(4, 1, x.data(), x.ld());
    CHECK(x.at(0, 0) == 1.0f);
    CHECK(x.at(1, 0) == 1.0f);
    CHECK(x.at(2, 0) == 0.0f);
    CHECK(x.at(3, 0) == 1.0f);
    CHECK(x.outside_untouched());
    // cols = 0 and rows = 0: nothing is read or written.
    StridedMatrix empty(3, 0, 4, 2);
    ks->softmax_rows(3, 0, empty.data(), 4);
    ks->softmax_rows(0, 5, empty.data(), 8);
    CHECK(empty.outside_untouched());
  }
}

TEST_CASE("softmax: the exponential is accurate to ~2e-7 relative over its whole range",
          "[kernels][softmax]") {
  // Rows [0, t]. The weights are w0 = 1 / (1 + e^t) and w1 = e^t / (1 + e^t), computed as
  // w0 = fl(1 * inv), w1 = fl(e(t) * inv) with the same inv, so
  //   * w1 / w0 = e(t) up to one rounding (6e-8): it measures the kernel's exp itself,
  //     required within 3e-7 relative (about 2.5 ulp; measured worst: 1.2e-7 for std::exp,
  //     1.5e-7 for the SIMD polynomial, on a 1e-4-step grid);
  //   * w1 carries exp's error plus the normalisation's roundings: within 5e-7 relative
  //     (measured worst: 1.9e-7 and 2.0e-7).
  // t covers [-87, 0] (below about -87.3, e^t is no longer a normal float) densely,
  // including the points n ln 2 where the range reduction changes n, and tiny |t| where
  // exp(t) ~ 1 + t.
  std::vector<float> t;
  for (int i = 0; i <= 87000; ++i) t.push_back(-0.001f * static_cast<float>(i));
  for (int n = 1; n <= 125; ++n) {
    const double x = -n * 0.69314718055994530942;
    for (double d : {-1e-4, -1e-6, 0.0, 1e-6, 1e-4}) t.push_back(static_cast<float>(x + d));
  }
  for (int e = 1; e <= 30; ++e) t.push_back(-std::ldexp(1.0f, -e));
  const int rows = static_cast<int>(t.size());
  for (const mha::KernelSet* ks : sets_under_test()) {
    INFO("kernel set " << ks->target);
    const std::vector<float> x = softmax_of_pairs(*ks, t);
    double worst_exp = 0.0, worst_weight = 0.0;
    float worst_exp_t = 0.0f, worst_weight_t = 0.0f;
    for (int i = 0; i < rows; ++i) {
      const float ti = t[static_cast<std::size_t>(i)];
      const double et = std::exp(static_cast<double>(ti));
      const double w0 = x[2 * static_cast<std::size_t>(i)];
      const double w1 = x[2 * static_cast<std::size_t>(i) + 1];
      const double rel_exp = std::fabs(w1 / w0 - et) / et;
      const double rel_weight = std::fabs(w1 - et / (1.0 + et)) / (et / (1.0 + et));
      if (!(rel_exp <= worst_exp)) {
        worst_exp = rel_exp;
        worst_exp_t = ti;
      }
      if (!(rel_weight <= worst_weight)) {
        worst_weight = rel_weight;
        worst_weight_t = ti;
      }
    }
    INFO("worst relative error of exp " << worst_exp << " at t = " << worst_exp_t);
    INFO("worst relative error of the weight " << worst_weight << " at t = " << worst_weight_t);
    CHECK(worst_exp <= 3e-7);
    CHECK(worst_weight <= 5e-7);
  }
}

TEST_CASE("softmax: at the underflow edge (t in [-90, -86]) the weight of e^t is within 1.6e-38",
          "[kernels][softmax]") {
  // Rows [0, t]: the second weight is e^t / (1 + e^t), near the smallest normal float
  // (1.18e-38 = e^-87.34). The SIMD exponential gives exactly 0 from t <= -87.68 on (where
  // its 2^n is built as +0) and subnormals just above; std::exp gives subnormals down to
  // about -103.9. Either way: never negative, never NaN, within 1.6e-38 of the truth, and
  // exactly 0 for t = -inf.
  std::vector<float> t;
  for (int i = 0; i <= 400; ++i) t.push_back(-86.0f - 0.01f * static_cast<float>(i));
  t.push_back(-kInf);
  const int rows = static_cast<int>(t.size());
  for (const mha::KernelSet* ks : sets_under_test()) {
    INFO("kernel set " << ks->target);
    const std::vector<float> x = softmax_of_pairs(*ks, t);
    double worst = 0.0;
    bool ordered = true;
    for (int i = 0; i < rows; ++i) {
      const double want = std::exp(static_cast<double>(t[static_cast<std::size_t>(i)]));
      const float w0 = x[2 * static_cast<std::size_t>(i)], w1 = x[2 * static_cast<std::size_t>(i) + 1];
      ordered = ordered && w0 == 1.0f && w1 >= 0.0f;
      const double err = std::fabs(w1 - want);
      if (!(err <= worst)) worst = err;
    }
    CHECK(ordered);
    CHECK(worst <= 1.6e-38);
    CHECK(x[2 * static_cast<std::size_t>(rows - 1) + 1] == 0.0f);
  }
}

// =======================================================================================
// all_finite, for every kernel set in this build
// =======================================================================================

// Finite entries everywhere, including the extremes of float's range; the padding between
// rows and the guards around the matrix hold NaN (the poison pattern), so a kernel that
// read past a row, before the first entry or after the last would answer false.
TEST_CASE("all_finite: true for finite matrices and reads nothing outside them",
          "[kernels][all_finite]") {
  const float extremes[] = {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::denorm_min(), -0.0f, 0.0f, 1e-38f};
  XorShift64 rng(17);
  for (const mha::KernelSet* ks : sets_under_test()) {
    for (const int cols : {0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33}) {
      for (const int rows : {0, 1, 3}) {
        for (const int pad : {0, 3}) {
          for (const int misalign : {0, 1, 2, 3}) {
            StridedMatrix x(rows, cols, cols + pad, misalign);
            int e = 0;
            for (int i = 0; i < rows; ++i)
              for (int j = 0; j < cols; ++j, ++e) x.at(i, j) = e % 5 == 4 ? extremes[e % 6] : rng.uniform(-1.0f, 1.0f);
            INFO("set " << ks->target << " rows=" << rows << " cols=" << cols << " pad=" << pad
                        << " misalign=" << misalign);
            CHECK(ks->all_finite(rows, cols, x.data(), cols + pad));
          }
        }
      }
    }
  }
}

// One non-finite entry, at every position of every tail and alignment: +inf, -inf, a quiet
// NaN and a NaN with the sign bit set.
TEST_CASE("all_finite: false for one infinity or NaN at any position", "[kernels][all_finite]") {
  const float bad[] = {kInf, -kInf, std::numeric_limits<float>::quiet_NaN(),
                       -std::numeric_limits<float>::quiet_NaN()};
  for (const mha::KernelSet* ks : sets_under_test()) {
    for (const int cols : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13}) {
      for (const int misalign : {0, 1, 3}) {
        const int rows = 3, ld = cols + 2;
        StridedMatrix x(rows, cols, ld, misalign);
        for (int i = 0; i < rows; ++i)
          for (int j = 0; j < cols; ++j) x.at(i, j) = 0.5f * static_cast<float>(j - i);
        REQUIRE(ks->all_finite(rows, cols, x.data(), ld));
        for (int i = 0; i < rows; ++i) {
          for (int j = 0; j < cols; ++j) {
            for (const float b : bad) {
              const float kept = x.at(i, j);
              x.at(i, j) = b;
              INFO("set " << ks->target << " cols=" << cols << " misalign=" << misalign << " at ("
                          << i << ", " << j << ") = " << b);
              CHECK_FALSE(ks->all_finite(rows, cols, x.data(), ld));
              x.at(i, j) = kept;
            }
          }
        }
      }
    }
  }
}

// =======================================================================================
// Dispatch
// =======================================================================================

TEST_CASE("active_kernels() is the SIMD set in wasm SIMD builds and scalar otherwise",
          "[kernels][dispatch]") {
  const mha::KernelSet& scalar = mha::scalar_kernels();
  CHECK(std::string(scalar.target) == "scalar");
  CHECK(scalar.gemm_nn == &mha::gemm_nn_f32_scalar);
  CHECK(scalar.softmax_rows == &mha::softmax_rows_f32_scalar);
  CHECK(scalar.softmax_numerators == &mha::softmax_numerators_f32_scalar);
  CHECK(scalar.all_finite == &mha::all_finite_f32_scalar);

  const mha::KernelSet& active = mha::active_kernels();
#if defined(__wasm_simd128__)
  const mha::KernelSet* simd = mha::wasmsimd_kernels();
  REQUIRE(simd != nullptr);
  CHECK(std::string(simd->target) == "wasmsimd");
  CHECK(simd->gemm_nn == &mha::gemm_nn_f32_wasmsimd);
  CHECK(simd->softmax_rows == &mha::softmax_rows_f32_wasmsimd);
  CHECK(simd->softmax_numerators == &mha::softmax_numerators_f32_wasmsimd);
  CHECK(simd->all_finite == &mha::all_finite_f32_wasmsimd);
  CHECK(&active == simd);
  CHECK(std::string(active.target) == "wasmsimd");
#else
  CHECK(mha::wasmsimd_kernels() == nullptr);
  CHECK(&active == &scalar);
  CHECK(std::string(active.target) == "scalar");
#endif
}
