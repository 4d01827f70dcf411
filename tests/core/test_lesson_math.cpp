// The small computations the widgets show: cosine readouts, a single softmax row,
// components along a direction, and the search for a different weighting with the same
// output ("the blend cannot be undone").
#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numeric>

#include "mha/lesson_math.hpp"
#include "test_support.hpp"

using namespace mha;
using Catch::Contains;

TEST_CASE("cosine similarity", "[lesson]") {
  CHECK(cosine_similarity({1, 0, 0}, {0, 2, 0}) == Approx(0.0));
  CHECK(cosine_similarity({1, 1}, {2, 2}) == Approx(1.0));
  CHECK(cosine_similarity({1, 0}, {-3, 0}) == Approx(-1.0));
  CHECK(cosine_similarity({0, 0}, {1, 0}) == 0.0);  // no direction
  CHECK(cosine_similarity({1e30f, 1e30f}, {1e30f, 0}) == Approx(std::sqrt(0.5)));
  CHECK_THROWS_WITH(cosine_similarity({1, 2}, {1}), Contains("different lengths (2 and 1)"));
  CHECK_THROWS_WITH(cosine_similarity({1, NAN}, {1, 1}), Contains("first vector: entry (0, 1) is NaN"));
}

TEST_CASE("softmax of one row", "[lesson]") {
  const float inf = std::numeric_limits<float>::infinity();
  const auto w = softmax({1, 2, 3});
  const double e1 = std::exp(-2.0), e2 = std::exp(-1.0), total = e1 + e2 + 1;
  CHECK(w[0] == Approx(e1 / total));
  CHECK(w[2] == Approx(1 / total));
  CHECK(softmax({0, -inf})[1] == 0.0f);
  CHECK(softmax({-inf, -inf}) == std::vector<float>{0, 0});
  CHECK(softmax({}).empty());
  const auto huge = softmax({1e30f, -1e30f, 1e30f});
  CHECK(huge[0] == Approx(0.5f));
  CHECK(huge[1] == 0.0f);
  CHECK_THROWS_WITH(softmax({0, inf}), Contains("scores: entry 1 is infinity"));
  CHECK_THROWS_WITH(softmax({NAN}), Contains("scores: entry 0 is NaN"));
}

TEST_CASE("component along a direction", "[lesson]") {
  const auto along = component_along({3, 4, 1, 0}, 2, 2, {0, 2});
  CHECK(along[0] == Approx(4.0f));
  CHECK(along[1] == Approx(0.0f).margin(1e-7));
  CHECK_THROWS_WITH(component_along({1, 2}, 1, 2, {0, 0}), Contains("direction u: the zero vector"));
  CHECK_THROWS_WITH(component_along({1, 2}, 1, 2, {1}), Contains("direction u: expected 1 x 2"));
}

TEST_CASE("a blend has other weightings with the same output", "[lesson][blend]") {
  // 11 tokens with 4-d values: researcher and "it" are orthogonal, the rest small.
  const int L = 11, d = 4;
  std::vector<float> values = seeded_matrix(L, d, 5, 0.3f);
  for (int j = 0; j < d; ++j) {
    values[1 * d + j] = j == 0 ? 1.0f : 0.0f;  // researcher
    values[7 * d + j] = j == 1 ? 1.0f : 0.0f;  // it
  }
  std::vector<float> w(L, 0.15f / 9);
  w[1] = 0.45f;
  w[7] = 0.40f;
  const AlternativeWeights alt = find_alternative_weights(values, L, d, w);
  REQUIRE(alt.found);
  CHECK(alt.exhaustive);
  CHECK(alt.max_output_difference < 1e-5);
  CHECK(alt.total_weight_moved > 0.05);
  CHECK(*std::min_element(alt.weights.begin(), alt.weights.end()) >= 0.0f);
  // The farthest: no weighting with the same output moves more. Random points of the set
  // (w moved along random directions that keep the output and the total, as far as every
  // weight stays >= 0) are checked against it, in double precision.
  const Eigen::MatrixXd V = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(values.data(), L, d).cast<double>();
  Eigen::MatrixXd A(d + 1, L);
  A.topRows(d) = V.transpose();
  A.row(d).setOnes();
  const Eigen::MatrixXd kernel = Eigen::FullPivLU<Eigen::MatrixXd>(A).kernel();
  const Eigen::VectorXd w0 = Eigen::Map<const Eigen::VectorXf>(w.data(), L).cast<double>();
  mha_test::Xorshift rng(3);
  double farthest_seen = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Eigen::VectorXd mix(kernel.cols());
    for (Eigen::Index k = 0; k < mix.size(); ++k) mix(k) = rng.uniform(-1, 1);
    const Eigen::VectorXd n = kernel * mix;
    double step = std::numeric_limits<double>::infinity();
    for (int s = 0; s < L; ++s) if (n(s) < 0) step = std::min(step, w0(s) / -n(s));
    farthest_seen = std::max(farthest_seen, (step * n).cwiseAbs().sum() / 2);
  }
  CAPTURE(farthest_seen);
  CHECK(farthest_seen <= alt.total_weight_moved + 1e-6);
  CHECK(std::accumulate(alt.weights.begin(), alt.weights.end(), 0.0) == Approx(1.0).margin(1e-6));
  for (int j = 0; j < d; ++j) CHECK(alt.alternative_output[j] == Approx(alt.output[j]).margin(1e-5));
}

TEST_CASE("the farthest weighting with the same output, known by hand", "[lesson][blend]") {
  // Values 0, 1, 2 (one dimension), all weight on the middle one: output 1. The weightings
  // with output 1 are (t, 1 - 2t, t) for t in [0, 1/2]; the weight moved is 2t, largest at
  // t = 1/2: half on each end, all of it moved.
  const AlternativeWeights alt = find_alternative_weights({0, 1, 2}, 3, 1, {0, 1, 0});
  REQUIRE(alt.found);
  CHECK(alt.exhaustive);
  CHECK(alt.weights == std::vector<float>{0.5f, 0.0f, 0.5f});
  CHECK(alt.total_weight_moved == Approx(1.0));
  // All weight on an end point: nothing else averages to it. Proven (every corner seen).
  const AlternativeWeights end = find_alternative_weights({0, 1, 2}, 3, 1, {0, 0, 1});
  CHECK_FALSE(end.found);
  CHECK(end.exhaustive);
  // Three points of a triangle in the plane and its centre: the centre alone is reached by
  // putting all weight on it or a third on each corner (farthest), or anything between.
  const std::vector<float> triangle{0, 0, 3, 0, 0, 3, 1, 1};
  const AlternativeWeights centre = find_alternative_weights(triangle, 4, 2, {0, 0, 0, 1});
  REQUIRE(centre.found);
  CHECK(centre.weights[0] == Approx(1.0 / 3));
  CHECK(centre.weights[3] == 0.0f);
  CHECK(centre.total_weight_moved == Approx(1.0));
}

TEST_CASE("independent values with few tokens leave one weighting", "[lesson][blend]") {
  // Two tokens, two independent directions: w^T V pins both weights down.
  const AlternativeWeights alt = find_alternative_weights({1, 0, 0, 1}, 2, 2, {0.3f, 0.7f});
  CHECK_FALSE(alt.found);
  CHECK(alt.exhaustive);
  CHECK(alt.output == std::vector<float>{0.3f, 0.7f});
  CHECK_THROWS_WITH(find_alternative_weights({1, 0, 0, 1}, 2, 2, {0.3f, 0.3f}), Contains("weights: they sum to 0.6"));
  CHECK_THROWS_WITH(find_alternative_weights({1, 0, 0, 1}, 2, 2, {1.3f, -0.3f}), Contains("weights: entry 1 is negative"));
  CHECK_THROWS_WITH(find_alternative_weights({1, 0, 0}, 2, 2, {0.5f, 0.5f}), Contains("values: expected 2 x 2"));
}

TEST_CASE("seeded matrices are reproducible and bounded", "[lesson]") {
  CHECK(seeded_matrix(3, 4, 9, 1.0f) == seeded_matrix(3, 4, 9, 1.0f));
  CHECK(seeded_matrix(3, 4, 9, 1.0f) != seeded_matrix(3, 4, 10, 1.0f));
  for (float v : seeded_matrix(20, 20, 1, 0.5f)) CHECK(std::abs(v) <= 0.5f);
  CHECK_THROWS_WITH(seeded_matrix(-1, 2, 1, 1.0f), Contains("seeded_matrix: rows"));
}

namespace {

// What find_alternative_weights promises, checked from outside: nothing NaN; and when it
// claims an alternative, the weights are non-negative, sum to 1, and give the same output
// within 1e-5 of the magnitude each output component is made of.
void check_alternative_contract(const std::vector<float>& values, int rows, int cols,
                                const std::vector<float>& w, const AlternativeWeights& alt) {
  for (float x : alt.output) CHECK(std::isfinite(x));
  CHECK(std::isfinite(alt.max_output_difference));
  CHECK(std::isfinite(alt.total_weight_moved));
  if (!alt.found) return;
  REQUIRE(alt.weights.size() == static_cast<std::size_t>(rows));
  double sum = 0;
  for (float x : alt.weights) {
    CHECK(x >= 0.0f);
    sum += x;
  }
  CHECK(sum == Approx(1.0).margin(1e-4));
  for (int j = 0; j < cols; ++j) {
    double difference = 0, magnitude = 0;
    for (int s = 0; s < rows; ++s) {
      const double v = values[static_cast<std::size_t>(s) * cols + j];
      difference += (static_cast<double>(alt.weights[s]) - w[s]) * v;
      magnitude += (static_cast<double>(alt.weights[s]) + w[s]) * std::abs(v);
    }
    CAPTURE(j, difference, magnitude);
    CHECK(std::abs(difference) <= 1e-5 * magnitude);
  }
}

}  // namespace

TEST_CASE("find_alternative_weights verifies its answer for values near float's range", "[lesson][blend]") {
  // Both from the adversarial test of issue 11: NaN, and an "alternative" with output -6e37
  // against -3e37 reported as found.
  {
    const std::vector<float> values{0, -1e38f, 1e-38f, 0.5f}, w{0, 0, 0, 1};
    const AlternativeWeights alt = find_alternative_weights(values, 4, 1, w);
    check_alternative_contract(values, 4, 1, w, alt);
    for (float x : alt.weights) CHECK(std::isfinite(x));
  }
  {
    const std::vector<float> values{3e38f, -3e38f, 1}, w{0.1f, 0.2f, 0.7f};
    const AlternativeWeights alt = find_alternative_weights(values, 3, 1, w);
    check_alternative_contract(values, 3, 1, w, alt);
    CHECK(alt.output[0] == Approx(-3e37).epsilon(1e-6));
    if (alt.found) CHECK(alt.alternative_output[0] == Approx(-3e37).epsilon(1e-5));
  }
  // Tiny and huge values side by side in several columns, from a seeded stream.
  mha_test::Xorshift rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int rows = 2 + rng.below(7), cols = 1 + rng.below(3);
    std::vector<float> values(static_cast<std::size_t>(rows) * cols);
    for (float& v : values) {
      const float magnitudes[] = {3e38f, 1e38f, 1e30f, 1.0f, 1e-30f, 1e-38f, 0.0f};
      v = magnitudes[rng.below(7)] * (rng.below(2) ? 1.0f : -1.0f) * rng.uniform(0.5f, 1.0f);
    }
    std::vector<float> w(static_cast<std::size_t>(rows));
    double total = 0;
    for (float& x : w) total += (x = rng.uniform(0, 1));
    for (float& x : w) x = static_cast<float>(x / total);
    CAPTURE(trial, values, w);
    check_alternative_contract(values, rows, cols, w, find_alternative_weights(values, rows, cols, w));
  }
}

TEST_CASE("seeded values and matrices use the named limits", "[lesson][limits]") {
  CHECK(seeded_values(12, 9, 1.0f) == seeded_matrix(3, 4, 9, 1.0f));
  CHECK(seeded_matrix(kMaxSeededRows, 1, 2, 1.0f).size() == static_cast<std::size_t>(kMaxSeededRows));
  CHECK_THROWS_WITH(seeded_matrix(kMaxSeededRows + 1, 1, 2, 1.0f), Contains("seeded_matrix: rows"));
  CHECK_THROWS_WITH(seeded_matrix(1, kMaxModelWidth + 1, 2, 1.0f), Contains("seeded_matrix: cols"));
  CHECK_THROWS_WITH(seeded_values(kMaxSeededValues + 1, 2, 1.0f), Contains("kMaxSeededValues"));
}
