// The forward pass against a naive double-precision reference, the identities the lesson
// relies on, and the errors for bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mha/attention.hpp"
#include "mha/lesson_math.hpp"
#include "test_support.hpp"

using namespace mha;
using mha_test::Xorshift;

namespace {

std::vector<float> random_input(int L, int d, std::uint32_t seed) {
  Xorshift rng(seed);
  std::vector<float> x(static_cast<std::size_t>(L) * d);
  for (float& v : x) v = rng.uniform(-1.0f, 1.0f);
  return x;
}

// Multi-head attention written from the formula, in double, with no shared code.
MatrixD naive_attention(const MultiHeadAttention& model, const std::vector<float>& x) {
  const AttentionConfig& c = model.config();
  const int L = c.seq_len, d = c.d_model, h = c.num_heads, dk = c.d_k();
  const MatrixD X = Eigen::Map<const MatrixF>(x.data(), L, d).cast<double>();
  const MatrixD Q = X * model.projection(Projection::Query).cast<double>();
  const MatrixD K = X * model.projection(Projection::Key).cast<double>();
  const MatrixD V = X * model.projection(Projection::Value).cast<double>();
  MatrixD concat(L, d);
  for (int i = 0; i < h; ++i) {
    for (int t = 0; t < L; ++t) {
      std::vector<double> score(L, -std::numeric_limits<double>::infinity());
      double top = -std::numeric_limits<double>::infinity();
      for (int s = 0; s < L; ++s) {
        if (c.causal && s > t) continue;
        score[s] = Q.row(t).segment(i * dk, dk).dot(K.row(s).segment(i * dk, dk)) / std::sqrt(dk);
        top = std::max(top, score[s]);
      }
      double total = 0;
      for (double& s : score) total += (s = std::exp(s - top));
      for (int j = 0; j < dk; ++j) {
        double acc = 0;
        for (int s = 0; s < L; ++s) acc += score[s] / total * V(s, i * dk + j);
        concat(t, i * dk + j) = acc;
      }
    }
  }
  return concat * model.output_projection().cast<double>();
}

double max_relative_error(const MatrixF& got, const MatrixD& want) {
  const double scale = std::max(want.cwiseAbs().maxCoeff(), 1e-30);
  return (got.cast<double>() - want).cwiseAbs().maxCoeff() / scale;
}

std::vector<float> identity(int d) {
  std::vector<float> m(static_cast<std::size_t>(d) * d, 0.0f);
  for (int i = 0; i < d; ++i) m[static_cast<std::size_t>(i) * d + i] = 1.0f;
  return m;
}

}  // namespace

TEST_CASE("forward pass matches a naive double reference", "[attention]") {
  struct Shape { int L, d, h; bool causal; };
  for (Shape s : {Shape{1, 4, 1, false}, Shape{10, 8, 2, false}, Shape{10, 8, 2, true},
                  Shape{7, 12, 3, false}, Shape{33, 64, 8, true}, Shape{17, 48, 48, false},
                  // 600 rows: query blocks of 2^17 / 600 = 218 rows, two full ones and a tail.
                  Shape{600, 32, 4, true}}) {
    CAPTURE(s.L, s.d, s.h, s.causal);
    MultiHeadAttention model({s.L, s.d, s.h, s.causal});
    model.randomize(42u + static_cast<unsigned>(s.d));
    const auto x = random_input(s.L, s.d, 7u);
    const ForwardTrace trace = model.forward(x);
    CHECK(max_relative_error(trace.output, naive_attention(model, x)) < 1e-5);
  }
}

TEST_CASE("attention weight rows are non-negative and sum to 1", "[attention]") {
  for (bool causal : {false, true}) {
    MultiHeadAttention model({12, 16, 4, causal});
    model.randomize(3);
    const ForwardTrace trace = model.forward(random_input(12, 16, 5));
    for (const HeadTrace& head : trace.heads) {
      CHECK(head.weights.minCoeff() >= 0.0f);
      for (int t = 0; t < 12; ++t) CHECK(head.weights.row(t).sum() == Approx(1.0f).margin(1e-6));
      if (causal) CHECK(head.weights.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(0));
    }
  }
}

TEST_CASE("with W_O = I the output is the concatenation", "[attention]") {
  MultiHeadAttention model({6, 8, 2});
  model.randomize(11);
  model.set_output_projection(identity(8));
  const ForwardTrace trace = model.forward(random_input(6, 8, 1));
  CHECK(trace.output.isApprox(trace.concat, 1e-6f));
  // ... and each head's output sits in its own private slice of it.
  CHECK(trace.concat.leftCols(4).isApprox(trace.heads[0].output));
  CHECK(trace.concat.rightCols(4).isApprox(trace.heads[1].output));
}

TEST_CASE("per-head contributions head_i W_O^i sum to the output", "[attention]") {
  MultiHeadAttention model({9, 12, 3});
  model.randomize(5);
  const ForwardTrace trace = model.forward(random_input(9, 12, 2));
  MatrixF sum = MatrixF::Zero(9, 12);
  for (const HeadTrace& head : trace.heads) sum += head.contribution;
  CHECK(max_relative_error(sum, trace.output.cast<double>()) < 1e-6);

  const ForwardTrace lean = model.forward(random_input(9, 12, 2), ForwardOptions{false});
  CHECK(lean.heads[0].contribution.size() == 0);
  CHECK(lean.output == trace.output);
}

TEST_CASE("attention costs the same for every head count at fixed d_model", "[attention][counts]") {
  const int L = 16, d = 512;
  const std::uint64_t expected_attention = 2ull * L * L * d;  // scores + weighted sum
  for (int h : {1, 8, 32}) {
    CAPTURE(h);
    MultiHeadAttention model({L, d, h});
    model.randomize(1);
    const OperationCounts c = model.forward(random_input(L, d, 9), ForwardOptions{false}).counts;
    CHECK(c.scores == static_cast<std::uint64_t>(h) * L * L * (d / h));
    CHECK(c.attention() == expected_attention);
    CHECK(c.projections == 3ull * L * d * d);
    CHECK(c.output == 1ull * L * d * d);
    CHECK(c.exponentials == static_cast<std::uint64_t>(h) * L * L);
  }
}

TEST_CASE("rank of W_Q^i (W_K^i)^T is at most d_k", "[attention][spectrum]") {
  for (int h : {1, 2, 4, 8, 16}) {
    CAPTURE(h);
    MultiHeadAttention model({4, 16, h});
    model.randomize(100u + static_cast<unsigned>(h));
    for (int i = 0; i < h; ++i) {
      const std::vector<double> sv = model.similarity_singular_values(i);
      REQUIRE(sv.size() == 16);
      // Random weights reach the bound exactly; d_model - d_k values are (numerically) 0.
      CHECK(numerical_rank(sv) == 16 / h);
      for (std::size_t j = 1; j < sv.size(); ++j) CHECK(sv[j] <= sv[j - 1]);
    }
  }
  MultiHeadAttention zero({4, 8, 2});
  CHECK(numerical_rank(zero.similarity_singular_values(1)) == 0);
}

TEST_CASE("huge logits give finite weights, never NaN", "[attention][robust]") {
  // Scores of order +/-1e30: X entries 1e15, W_Q = W_K = I, d_k = 1.
  MultiHeadAttention model({3, 2, 2});
  model.set_projection(Projection::Query, identity(2));
  model.set_projection(Projection::Key, identity(2));
  model.set_projection(Projection::Value, identity(2));
  model.set_output_projection(identity(2));
  const std::vector<float> x = {1e15f, -1e15f, -1e15f, 1e15f, 1e-30f, 0.0f};
  const ForwardTrace trace = model.forward(x);
  for (const HeadTrace& head : trace.heads) {
    CHECK(head.scores.cwiseAbs().maxCoeff() >= 1e29f);
    CHECK(head.weights.allFinite());
    for (int t = 0; t < 3; ++t) CHECK(head.weights.row(t).sum() == Approx(1.0f));
  }
  CHECK(trace.output.allFinite());
}

TEST_CASE("the caller can supply a head's attention weights", "[attention][override]") {
  MultiHeadAttention model({3, 4, 2});
  model.randomize(8);
  const std::vector<float> w = {0.45f, 0.40f, 0.15f, 1, 0, 0, 0, 0.5f, 0.5f};
  model.set_attention_override(1, w);
  CHECK(model.has_attention_override(1));
  CHECK_FALSE(model.has_attention_override(0));
  const auto x = random_input(3, 4, 4);
  const ForwardTrace trace = model.forward(x);
  CHECK(trace.heads[1].weights_overridden);
  CHECK(trace.heads[1].weights == Eigen::Map<const MatrixF>(w.data(), 3, 3));
  // head_1 = W V_1, row by row.
  const MatrixF v1 = trace.values.rightCols(2);
  CHECK(trace.heads[1].output.isApprox(Eigen::Map<const MatrixF>(w.data(), 3, 3) * v1, 1e-6f));
  model.clear_attention_override(1);
  CHECK_FALSE(model.forward(x).heads[1].weights_overridden);
}

TEST_CASE("renormalize_rows rescales non-negative rows to sum to 1", "[attention][override]") {
  const auto w = renormalize_rows({2, 2, 0, 1, 3, 0}, 2, 3);
  CHECK(w[0] == Approx(0.5f));
  CHECK(w[4] == Approx(0.75f));
  CHECK_THROWS_WITH(renormalize_rows({0, 0, 1, 1}, 2, 2), Catch::Contains("row 0 sums to 0"));
  CHECK_THROWS_WITH(renormalize_rows({1, -1}, 1, 2), Catch::Contains("non-negative"));
}

TEST_CASE("same seed, same weights", "[attention]") {
  MultiHeadAttention a({2, 8, 2}), b({2, 8, 2}), c({2, 8, 2});
  a.randomize(77);
  b.randomize(77);
  c.randomize(78);
  CHECK(a.projection(Projection::Key) == b.projection(Projection::Key));
  CHECK(a.projection(Projection::Key) != c.projection(Projection::Key));
  CHECK(a.projection(Projection::Value).cwiseAbs().maxCoeff() <= std::sqrt(3.0f / 8));
}

TEST_CASE("every bad input is rejected with a message naming it", "[attention][errors]") {
  using Catch::Contains;
  CHECK_THROWS_WITH(MultiHeadAttention({10, 8, 3}), Contains("num_heads (h): must divide d_model = 8"));
  CHECK_THROWS_WITH(MultiHeadAttention({0, 8, 2}), Contains("seq_len (L): must be between 1 and"));
  CHECK_THROWS_WITH(MultiHeadAttention({4, 0, 1}), Contains("d_model: must be between 1"));
  CHECK_THROWS_WITH(MultiHeadAttention({4, 8, 0}), Contains("num_heads (h): must be between 1 and 8"));
  CHECK_THROWS_WITH(MultiHeadAttention({5000, 8, 1}), Contains("seq_len (L)"));
  CHECK_THROWS_AS(MultiHeadAttention({4, 8, 3}), InvalidArgument);

  MultiHeadAttention model({2, 4, 2});
  CHECK_THROWS_WITH(model.forward(std::vector<float>(7)), Contains("X: expected 2 x 4 = 8 values, got 7"));
  std::vector<float> x(8, 0.5f);
  x[5] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(model.forward(x), Contains("X: entry (1, 1) is NaN"));
  x[5] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(model.forward(x), Contains("X: entry (1, 1) is infinity"));

  CHECK_THROWS_WITH(model.set_head_projection(Projection::Query, 2, std::vector<float>(8)),
                    Contains("W_Q: head: must be between 0 and 1, got 2"));
  CHECK_THROWS_WITH(model.set_head_projection(Projection::Key, 1, std::vector<float>(9)),
                    Contains("W_K of head 1: expected 4 x 2 = 8 values, got 9"));
  CHECK_THROWS_WITH(model.set_projection(Projection::Value, std::vector<float>(3)),
                    Contains("W_V: expected 4 x 4 = 16 values"));
  std::vector<float> w_o(16, 0.0f);
  w_o[3] = -std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(model.set_output_projection(w_o), Contains("W_O: entry (0, 3) is -infinity"));

  CHECK_THROWS_WITH(model.set_attention_override(0, {0.5f, 0.4f, 0, 1}),
                    Contains("attention weights of head 0: row 0 sums to 0.9"));
  CHECK_THROWS_WITH(model.set_attention_override(0, {1.5f, -0.5f, 0, 1}),
                    Contains("entry (0, 1) is -0.5; attention weights must be non-negative"));
  CHECK_THROWS_WITH(model.set_attention_override(5, {1, 0, 0, 1}), Contains("attention override: head"));
  CHECK_THROWS_WITH(model.similarity_singular_values(-1), Contains("head: must be between 0 and 1, got -1"));

  MultiHeadAttention causal({2, 4, 2, true});
  CHECK_THROWS_WITH(causal.set_attention_override(1, {0.5f, 0.5f, 0, 1}),
                    Contains("causal mask lets token 0 attend only to tokens 0..0"));

  // Finite inputs whose products overflow float: named, not passed on as inf or NaN.
  MultiHeadAttention big({2, 2, 1});
  big.set_projection(Projection::Query, identity(2));
  big.set_projection(Projection::Key, identity(2));
  CHECK_THROWS_WITH(big.forward({1e30f, 1e30f, 1e30f, 1e30f}),
                    Contains("the scores Q K^T / sqrt(d_k) of head 0 overflowed"));
  big.set_projection(Projection::Query, std::vector<float>(4, 1e30f));
  CHECK_THROWS_WITH(big.forward({1e30f, 1e30f, 0, 0}), Contains("the projection X W_Q overflowed"));
  // A rejected call leaves the model as it was.
  CHECK(big.projection(Projection::Query)(0, 0) == 1e30f);
}

TEST_CASE("the lean path (no attention matrices kept) gives the same output and counts", "[attention]") {
  for (bool causal : {false, true}) {
    for (int h : {1, 4, 16}) {
      CAPTURE(causal, h);
      // 600 rows: query blocks of 2^17 / 600 = 218 rows (forward_into), two full ones and a tail.
      MultiHeadAttention model({600, 32, h, causal});
      model.randomize(31);
      const auto x = random_input(600, 32, 4);
      const ForwardTrace full = model.forward(x);
      ForwardOptions lean_options;
      lean_options.keep_attention = false;
      const ForwardTrace lean = model.forward(x, lean_options);
      CHECK(lean.output == full.output);
      CHECK(lean.concat == full.concat);
      CHECK(lean.heads[0].scores.size() == 0);
      CHECK(lean.heads[0].weights.size() == 0);
      CHECK(lean.heads[h - 1].output == full.heads[h - 1].output);
      CHECK(lean.counts.attention() == full.counts.attention());
      CHECK(lean.counts.exponentials == full.counts.exponentials);
      for (int i = 0; i < h; ++i)
        CHECK(lean.heads[i].contribution.isApprox(full.heads[i].contribution));
    }
  }
}

TEST_CASE("randomize works for every d_model up to kMaxModelWidth", "[attention][limits]") {
  // Its stream of 4 d_model x d_model values once went through seeded_matrix(4 d_model, ...),
  // whose row limit refused every d_model from kMaxModelWidth / 4 + 1 = 1025 up.
  for (int d : {1025, 1536}) {
    CAPTURE(d);
    MultiHeadAttention model({1, d, 1});
    CHECK_NOTHROW(model.randomize(9));
    CHECK(model.output_projection().cwiseAbs().maxCoeff() > 0);
  }
  // The stream is the one seeded_matrix reads: W_Q is its first d_model rows, W_O its last.
  MultiHeadAttention small({1, 6, 2});
  small.randomize(21);
  const std::vector<float> stream = seeded_matrix(24, 6, 21, std::sqrt(3.0f / 6));
  CHECK(small.projection(Projection::Query) == Eigen::Map<const MatrixF>(stream.data(), 6, 6));
  CHECK(small.output_projection() == Eigen::Map<const MatrixF>(stream.data() + 18 * 6, 6, 6));
}

TEST_CASE("a call whose planned work exceeds its budget is refused before any work", "[attention][limits]") {
  using Catch::Contains;
  // L = 4096, d_model = 1024: 4 L d^2 + 2 L^2 d = 5.2e10 multiply-adds, far over 4e9.
  MultiHeadAttention wide({kMaxSeqLen, 1024, 1});
  CHECK(forward_multiply_adds(wide.config(), {}) > kMaxForwardMultiplyAdds);
  CHECK_THROWS_WITH(wide.forward(std::vector<float>(1)), Contains("over the work budget kMaxForwardMultiplyAdds"));
  // The planned count is the counted work plus the per-head contributions.
  MultiHeadAttention model({7, 12, 3});
  model.randomize(4);
  const ForwardTrace trace = model.forward(random_input(7, 12, 2));
  CHECK(forward_multiply_adds(model.config(), {true}) == trace.counts.total_multiply_adds() + 7 * 12 * 12);
  CHECK(forward_multiply_adds(model.config(), {false}) == trace.counts.total_multiply_adds());
  // The lesson's and the benchmark's largest passes stay within the budget.
  CHECK(forward_multiply_adds({256, 512, 8}, {}) <= kMaxForwardMultiplyAdds);
  CHECK(forward_multiply_adds({512, 512, 32}, {}) <= kMaxForwardMultiplyAdds);

  // Singular values: d_model = 1024 once ran over 100 s; 64 is the widget's widest.
  MultiHeadAttention spectrum_wide({1, 1024, 1});
  CHECK_THROWS_WITH(spectrum_wide.similarity_singular_values(0), Contains("over the work budget kMaxSpectrumMultiplyAdds"));
  CHECK(spectrum_multiply_adds({1, 64, 1}) <= kMaxSpectrumMultiplyAdds);
  CHECK(spectrum_multiply_adds({1, 256, 1}) <= kMaxSpectrumMultiplyAdds);
}

TEST_CASE("forward_into reuses its buffers and gives forward()'s numbers, whatever the options sequence",
          "[attention][forward_into]") {
  for (const bool causal : {false, true}) {
    MultiHeadAttention model({12, 16, 4, causal});
    model.randomize(5);
    const auto x1 = random_input(12, 16, 3), x2 = random_input(12, 16, 4);
    ForwardTrace trace;
    ForwardScratch scratch;
    ForwardOptions lean;
    lean.keep_attention = false;
    lean.per_head_contributions = false;
    lean.head_outputs = false;
    ForwardOptions full;
    // Options change between calls: buffers are resized and results stay right.
    for (const ForwardOptions* options : {&full, &lean, &full, &lean, &lean}) {
      for (const auto* x : {&x1, &x2}) {
        model.forward_into(x->data(), x->size(), *options, trace, scratch);
        const ForwardTrace expected = model.forward(*x, *options);
        CHECK(trace.output == expected.output);
        CHECK(trace.concat == expected.concat);
        CHECK(trace.counts.total_multiply_adds() == expected.counts.total_multiply_adds());
        CHECK(trace.counts.exponentials == expected.counts.exponentials);
        for (int i = 0; i < 4; ++i) {
          CHECK(trace.heads[i].weights == expected.heads[i].weights);
          CHECK(trace.heads[i].output == expected.heads[i].output);
          CHECK(trace.heads[i].contribution == expected.heads[i].contribution);
        }
      }
    }
    // Same options again: no matrix moves (nothing was reallocated).
    const float* output = trace.output.data();
    const float* concat = trace.concat.data();
    const float* keys_t = scratch.keys_t.data();
    model.forward_into(x1.data(), x1.size(), lean, trace, scratch);
    CHECK(trace.output.data() == output);
    CHECK(trace.concat.data() == concat);
    CHECK(scratch.keys_t.data() == keys_t);
    CHECK(trace.heads[0].output.size() == 0);  // head_outputs = false
  }
}

TEST_CASE("forward_into refuses a wrong count and non-finite X by name, before reading past count",
          "[attention][forward_into]") {
  MultiHeadAttention model({2, 4, 2});
  ForwardTrace trace;
  ForwardScratch scratch;
  std::vector<float> x(8, 0.5f);
  CHECK_THROWS_WITH(model.forward_into(x.data(), 7, {}, trace, scratch), "X: expected 2 x 4 = 8 values, got 7");
  x[5] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(model.forward_into(x.data(), 8, {}, trace, scratch),
                    "X: entry (1, 1) is NaN; every value must be a finite number");
}
