// A seeded random driver for the core, built with clang under AddressSanitizer and
// UndefinedBehaviorSanitizer (any memory error or UB aborts the run). It throws shapes and
// values at every entry point, including NaN, infinities, 1e30, 1e-30, subnormals, values
// spread over float's whole range (3e38 beside 1e-38), wrong sizes and bad heads, and
// checks the contract:
//   * a call either succeeds, and then nothing it returns is NaN or infinite
//     (masked scores, which are -infinity by design, excepted), or
//   * it throws mha::InvalidArgument with a non-empty message;
//   * nothing else ever escapes.
// Every 50th iteration also builds a trainer from a random (mostly tiny, sometimes invalid)
// configuration and drives it: steps, head masks of right and wrong sizes, importance,
// attention examples; losses, accuracies and importance scores must be finite.
// Usage: fuzz_core [iterations] [seed]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "mha/attention.hpp"
#include "mha/kernels.hpp"
#include "mha/lesson_math.hpp"
#include "mha/training.hpp"

namespace {

struct Random {
  std::uint64_t state;
  std::uint32_t next() {  // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<std::uint32_t>((state * 0x2545F4914F6CDD1Dull) >> 32);
  }
  int below(int n) { return n <= 0 ? 0 : static_cast<int>(next() % static_cast<std::uint32_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
  float uniform() { return static_cast<float>(next() >> 8) / 16777216.0f * 2 - 1; }
  // Mostly ordinary numbers, sometimes the values that break naive code.
  float value() {
    const float inf = std::numeric_limits<float>::infinity();
    switch (below(40)) {
      case 0: return std::numeric_limits<float>::quiet_NaN();
      case 1: return inf;
      case 2: return -inf;
      case 3: return 1e30f;
      case 4: return -1e30f;
      case 5: return 1e-30f;
      case 6: return std::numeric_limits<float>::denorm_min();
      case 7: return 0.0f;
      case 8: return -0.0f;
      case 9: return 3e38f;
      default: return uniform() * (chance(10) ? 1e6f : 2.0f);
    }
  }
  std::vector<float> values(std::size_t n, int special_percent) {
    std::vector<float> v(n);
    for (float& x : v) x = chance(special_percent) ? value() : uniform();
    return v;
  }
  // Values spread over float's whole range, as in the inputs that once broke
  // find_alternative_weights: 3e38 beside 1, -1e38 beside 1e-38.
  std::vector<float> extreme_values(std::size_t n) {
    static const float magnitudes[] = {3e38f, 1e38f, 1e30f, 1.0f, 0.5f, 1e-30f, 1e-38f, 0.0f};
    std::vector<float> v(n);
    for (float& x : v) x = magnitudes[below(8)] * (chance(50) ? 1.0f : -1.0f) * (chance(50) ? 1.0f : 0.5f + std::abs(uniform()) / 2);
    return v;
  }
  std::size_t size_near(std::size_t n) {  // usually right, sometimes off by a little
    if (!chance(8)) return n;
    return static_cast<std::size_t>(std::max<long long>(0, static_cast<long long>(n) + below(5) - 2));
  }
};

long long successes = 0, rejections = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "FUZZ FAILURE: %s\n", what.c_str());
  std::exit(1);
}

void require_finite(const mha::MatrixF& m, const char* what, bool allow_negative_infinity = false) {
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const float v = m.data()[i];
    if (std::isnan(v) || (std::isinf(v) && !(allow_negative_infinity && v < 0))) fail(std::string(what) + " holds a non-finite value");
  }
}

// find_alternative_weights' promise, checked from outside: nothing NaN, and a claimed
// alternative is non-negative, sums to 1, and has the same output within 1e-5 of the
// magnitude each output component is made of.
void check_alternative(const std::vector<float>& values, int rows, int cols, const std::vector<float>& w,
                       const mha::AlternativeWeights& alt) {
  for (float x : alt.output) if (!std::isfinite(x)) fail("alternative: output");
  if (!std::isfinite(alt.max_output_difference) || !std::isfinite(alt.total_weight_moved)) fail("alternative: a summary is not finite");
  if (!alt.found) return;
  double sum = 0;
  for (float x : alt.weights) {
    if (!std::isfinite(x) || x < 0) fail("alternative weight");
    sum += x;
  }
  if (std::abs(sum - 1) > 1e-4) fail("alternative weights do not sum to 1");
  for (float x : alt.alternative_output) if (!std::isfinite(x)) fail("alternative output");
  for (int j = 0; j < cols; ++j) {
    double difference = 0, magnitude = 0;
    for (int s = 0; s < rows; ++s) {
      const double v = values[static_cast<std::size_t>(s) * cols + j];
      difference += (static_cast<double>(alt.weights[s]) - w[s]) * v;
      magnitude += (static_cast<double>(alt.weights[s]) + w[s]) * std::abs(v);
    }
    if (std::abs(difference) > 1e-5 * magnitude) fail("alternative weights change the output");
  }
}

template <typename Call>
void attempt(const char* name, Call&& call) {
  try {
    call();
    ++successes;
  } catch (const mha::InvalidArgument& e) {
    if (std::string(e.what()).empty()) fail(std::string(name) + ": rejection without a message");
    ++rejections;
  } catch (const std::exception& e) {
    fail(std::string(name) + ": unexpected exception: " + e.what());
  } catch (...) {
    fail(std::string(name) + ": unexpected non-standard exception");
  }
}

void fuzz_model(Random& r) {
  mha::AttentionConfig config{r.below(18) + (r.chance(3) ? -1 : 1), r.below(24) + (r.chance(3) ? -1 : 1),
                              r.below(9) + (r.chance(3) ? -1 : 1), r.chance(30)};
  std::unique_ptr<mha::MultiHeadAttention> model;
  attempt("constructor", [&] { model = std::make_unique<mha::MultiHeadAttention>(config); });
  if (!model) return;
  const int L = config.seq_len, d = config.d_model, h = config.num_heads, dk = d / h;
  const int special = r.chance(50) ? 0 : 3;
  if (r.chance(70)) model->randomize(r.next());
  for (int step = 0; step < 6; ++step) {
    switch (r.below(8)) {
      case 0: attempt("set_projection", [&] { model->set_projection(static_cast<mha::Projection>(r.below(3)), r.values(r.size_near(static_cast<std::size_t>(d) * d), special)); }); break;
      case 1: attempt("set_head_projection", [&] { model->set_head_projection(static_cast<mha::Projection>(r.below(3)), r.below(h + 2) - 1, r.values(r.size_near(static_cast<std::size_t>(d) * dk), special)); }); break;
      case 2: attempt("set_output_projection", [&] { model->set_output_projection(r.values(r.size_near(static_cast<std::size_t>(d) * d), special)); }); break;
      case 3: {  // attention override: valid rows, or rows that are subtly or grossly wrong
        std::vector<float> w(r.size_near(static_cast<std::size_t>(L) * L));
        for (float& x : w) x = std::abs(r.uniform());
        if (w.size() == static_cast<std::size_t>(L) * L && r.chance(60)) {
          try { w = mha::renormalize_rows(w, L, L); } catch (const mha::InvalidArgument&) {}
          if (config.causal) for (int t = 0; t < L; ++t) for (int s = t + 1; s < L; ++s) w[t * L + s] = 0;
          if (config.causal) try { w = mha::renormalize_rows(w, L, L); } catch (const mha::InvalidArgument&) {}
        }
        if (r.chance(10) && !w.empty()) w[r.below(static_cast<int>(w.size()))] = r.value();
        attempt("set_attention_override", [&] { model->set_attention_override(r.below(h + 2) - 1, w); });
        break;
      }
      case 4: attempt("clear_attention_override", [&] { model->clear_attention_override(r.below(h + 2) - 1); }); break;
      case 5: attempt("similarity_singular_values", [&] {
        if (d > 24) return;
        for (double s : model->similarity_singular_values(r.below(h + 2) - 1))
          if (!std::isfinite(s)) fail("singular value is not finite");
      }); break;
      default: attempt("forward", [&] {
        const mha::ForwardTrace t = model->forward(r.values(r.size_near(static_cast<std::size_t>(L) * d), special), {r.chance(50)});
        require_finite(t.queries, "queries");
        require_finite(t.output, "output");
        require_finite(t.concat, "concat");
        for (const mha::HeadTrace& head : t.heads) {
          require_finite(head.scores, "scores", config.causal);
          require_finite(head.weights, "weights");
          require_finite(head.output, "head output");
          require_finite(head.contribution, "contribution");
        }
      });
    }
  }
}

void fuzz_lesson_math(Random& r) {
  const int n = r.below(12);
  const int special = r.chance(50) ? 0 : 5;
  attempt("cosine_similarity", [&] {
    const double c = mha::cosine_similarity(r.values(n, special), r.values(r.size_near(n), special));
    if (!std::isfinite(c) || std::abs(c) > 1) fail("cosine out of range");
  });
  attempt("softmax", [&] {
    for (float w : mha::softmax(r.values(n, special))) if (!std::isfinite(w) || w < 0) fail("softmax weight");
  });
  attempt("component_along", [&] {
    const int rows = r.below(4), cols = r.below(6) + (r.chance(5) ? 0 : 1);
    for (float v : mha::component_along(r.values(r.size_near(static_cast<std::size_t>(rows) * cols), special), rows, cols, r.values(r.size_near(cols), special)))
      if (!std::isfinite(v)) fail("component_along result");
  });
  attempt("find_alternative_weights", [&] {
    const int rows = r.below(12) + (r.chance(5) ? 0 : 1), cols = r.below(6) + 1;
    std::vector<float> w(r.size_near(rows));
    for (float& x : w) x = std::abs(r.uniform());
    if (r.chance(20)) for (float& x : w) x = r.chance(70) ? 0.0f : x;  // one-hot and sparse weightings
    if (!w.empty() && r.chance(80)) { double s = 0; for (float x : w) s += x; if (s > 0) for (float& x : w) x = static_cast<float>(x / s); }
    const std::size_t size = r.size_near(static_cast<std::size_t>(rows) * cols);
    const std::vector<float> values = r.chance(30) ? r.extreme_values(size) : r.values(size, special);
    const mha::AlternativeWeights alt = mha::find_alternative_weights(values, rows, cols, w);
    check_alternative(values, rows, cols, w, alt);
  });
}

void fuzz_kernels(Random& r) {
  // Random shapes, leading dimensions and misaligned starts, in exactly-sized buffers, so
  // that ASan sees any read or write past the end.
  const int m = r.below(9), n = r.below(19), k = r.below(19);
  const int lda = k + r.below(3), ldb_nn = n + r.below(3), ldc = n + r.below(3);
  const std::size_t offset = static_cast<std::size_t>(r.below(4));
  std::vector<float> a(offset + static_cast<std::size_t>(std::max(0, (m - 1) * lda + k)));
  std::vector<float> b(offset + static_cast<std::size_t>(std::max(0, (k - 1) * ldb_nn + n)));
  std::vector<float> c(offset + static_cast<std::size_t>(std::max(0, (m - 1) * ldc + n)));
  for (float& x : a) x = r.uniform();
  for (float& x : b) x = r.uniform();
  const mha::KernelSet& kernels = mha::active_kernels();
  if (m > 0 && n > 0) {
    kernels.gemm_nn(m, n, k, a.data() + offset, lda, b.data() + offset, ldb_nn, c.data() + offset, ldc);
    kernels.softmax_rows(m, n, c.data() + offset, ldc);
  }
}

void fuzz_training(Random& r) {
  mha::TrainingConfig c;
  c.task = r.chance(50) ? mha::Task::PreviousToken : mha::Task::BackAndFirst;
  c.vocab = r.below(17) + (r.chance(5) ? -1 : 1);
  c.seq_len = r.below(12) + (r.chance(5) ? -1 : 1);
  c.offset = r.below(c.seq_len + 1);
  c.d_model = r.below(16) + (r.chance(5) ? -1 : 1);
  c.num_heads = r.below(8) + (r.chance(5) ? -1 : 1);
  c.num_layers = r.below(3) + (r.chance(5) ? 0 : 1);
  c.causal = r.chance(70);
  c.batch_size = r.below(4) + (r.chance(5) ? 0 : 1);
  c.eval_size = r.below(6) + (r.chance(5) ? 0 : 1);
  c.learning_rate = r.chance(10) ? r.value() : 0.01f * static_cast<float>(r.below(20) + 1);
  std::unique_ptr<mha::Trainer> trainer;
  attempt("Trainer", [&] { trainer = std::make_unique<mha::Trainer>(c, r.next()); });
  if (!trainer) return;
  const int heads = c.num_heads * c.num_layers;
  for (int step = 0; step < 5; ++step) {
    switch (r.below(5)) {
      case 0: attempt("Trainer::step", [&] {
        const mha::LossResult res = trainer->step(r.below(4) + (r.chance(5) ? -1 : 1));
        if (!std::isfinite(res.loss) || !(res.accuracy >= 0 && res.accuracy <= 1)) fail("training loss or accuracy");
      }); break;
      case 1: attempt("Trainer::set_head_mask", [&] {
        std::vector<bool> mask(static_cast<std::size_t>(r.chance(10) ? r.below(heads + 2) : heads));
        for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = r.chance(40);
        trainer->set_head_mask(mask);
      }); break;
      case 2: attempt("Trainer::importance", [&] {
        for (const mha::HeadImportance& h : trainer->importance())
          if (!std::isfinite(h.loss_change) || !std::isfinite(h.gradient_score)) fail("importance");
      }); break;
      case 3: attempt("Trainer::example", [&] {
        for (float w : trainer->example(r.below(c.eval_size + 2) - 1).weights)
          if (!std::isfinite(w) || w < 0) fail("attention example weight");
      }); break;
      default: attempt("Trainer::evaluate", [&] {
        if (!std::isfinite(trainer->evaluate().loss)) fail("evaluation loss");
      });
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const long long iterations = argc > 1 ? std::atoll(argv[1]) : 2000;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20261129;
  Random r{seed * 0x9E3779B97F4A7C15ull + 1};
  for (long long i = 0; i < iterations; ++i) {
    fuzz_model(r);
    fuzz_lesson_math(r);
    fuzz_kernels(r);
    if (i % 50 == 0) fuzz_training(r);
  }
  std::printf("fuzz_core: %lld iterations (seed %llu): %lld calls succeeded with finite results, "
              "%lld rejected with a message, 0 failures\n",
              iterations, static_cast<unsigned long long>(seed), successes, rejections);
  return 0;
}
