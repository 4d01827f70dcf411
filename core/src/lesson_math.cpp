#include "mha/lesson_math.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "mha/errors.hpp"
#include "mha/kernels.hpp"
#include "mha/matrix.hpp"
#include "mha/message.hpp"
#include "mha/validation.hpp"

namespace mha {
namespace {

void require_same_size(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) {
    throw InvalidArgument("cosine similarity: the vectors have different lengths (" +
                          std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")");
  }
}

// "Same output" for find_alternative_weights: each output component may differ by at most
// this share of the magnitude it is made of, sum_s (w_s + w'_s) |V_sj|. Returning w' as
// float32 alone moves that sum by up to 6e-8 of it; the search's own rounding adds less.
constexpr double kSameOutputTolerance = 1e-5;
// Weights must sum to 1 within this (float rounding of typed-in weights), given and returned.
constexpr double kWeightsSumTolerance = 1e-4;
// A returned weighting keeps the given one's total within this (float32 rounding of its
// weights moves the total by under 6e-8).
constexpr double kAlternativeTotalTolerance = 1e-6;

// Whether w' (as returned, float32) is what find_alternative_weights promises for w: every
// weight finite and non-negative, the same total as w (so 1, as for w), the same output as w within
// kSameOutputTolerance of the values that make it, and different from w. The search works
// in double precision on rescaled values, and values near float's range (1e38 next to
// 1e-38) can still defeat it; so the answer is checked as returned, and refused if wrong.
bool is_verified_alternative(const Eigen::MatrixXd& V, const Eigen::VectorXd& w, const Eigen::VectorXd& alternative) {
  if (!alternative.allFinite() || alternative.minCoeff() < 0) return false;
  if (!(std::abs(alternative.sum() - w.sum()) <= kAlternativeTotalTolerance) ||
      !(std::abs(alternative.sum() - 1.0) <= kWeightsSumTolerance)) {
    return false;
  }
  const Eigen::VectorXd difference = V.transpose() * (alternative - w);
  const Eigen::VectorXd magnitude = V.cwiseAbs().transpose() * (w + alternative);
  for (Eigen::Index j = 0; j < V.cols(); ++j) {
    if (!(std::abs(difference(j)) <= kSameOutputTolerance * magnitude(j))) return false;
  }
  return (alternative - w).cwiseAbs().sum() / 2 >= 1e-6;
}

// The null space of V^T does not change when a column of V is scaled, so each column is
// scaled to a largest entry of 1 first: values near float's range (3e38 beside 1) would
// otherwise swamp the row of ones and the pivot thresholds below.
Eigen::MatrixXd scaled_columns(const Eigen::MatrixXd& V) {
  Eigen::MatrixXd scaled = V;
  for (Eigen::Index j = 0; j < V.cols(); ++j) {
    const double largest = V.col(j).cwiseAbs().maxCoeff();
    if (largest > 0) scaled.col(j) /= largest;
  }
  return scaled;
}

// The indices of rank(A) independent rows of A, the rest being combinations of them: the
// pivot columns of a fully pivoted LU of A^T, rank-revealing like a column-pivoted QR. (LU is
// the one decomposition this file uses: each other kind would add its own code to the wasm
// module.)
std::vector<int> independent_rows(const Eigen::MatrixXd& A) {
  Eigen::FullPivLU<Eigen::MatrixXd> lu(A.transpose());
  lu.setThreshold(1e-9);
  std::vector<int> rows(static_cast<std::size_t>(lu.rank()));
  for (std::size_t k = 0; k < rows.size(); ++k) rows[k] = lu.permutationQ().indices()(static_cast<Eigen::Index>(k));
  return rows;
}

// At most this many bases (m x m solves, m = rank of [V^T; 1^T]) are tried when visiting the
// corners of the same-output set: C(11, 4) = 330 for the lesson's blend; a wide head over
// many tokens would need astronomically many, and then the walk answers instead.
constexpr double kMaxCornerSolveWork = 2e7;  // bases x m^3

// Every corner of P = { w' >= 0 : A w' = A w }, A = [scaled^T; 1^T], or nullopt when there
// are too many bases to try. Linear programming's basic solutions:
//   1. Keep m independent rows of A (m = rank A; the rest are combinations of them, so they
//      add no constraint).
//   2. A corner has at most m non-zero weights: for each set S of m tokens whose columns of
//      the kept rows are independent, solve A_S x = A w; if x >= 0, the corner is x on S and
//      0 elsewhere. Every corner is found this way (degenerate ones several times).
std::optional<std::vector<Eigen::VectorXd>> corners_of_same_output_set(const Eigen::MatrixXd& scaled,
                                                                      const Eigen::VectorXd& w) {
  const int rows = static_cast<int>(scaled.rows());
  const int cols = static_cast<int>(scaled.cols());
  Eigen::MatrixXd A(cols + 1, rows);
  A.topRows(cols) = scaled.transpose();
  A.row(cols).setOnes();
  const std::vector<int> independent = independent_rows(A);
  const int m = static_cast<int>(independent.size());
  double bases = 1;  // C(rows, m), in double: it may be astronomically large
  for (int k = 0; k < m; ++k) bases = bases * (rows - k) / (k + 1);
  if (bases * m * m * m > kMaxCornerSolveWork) return std::nullopt;
  Eigen::MatrixXd kept(m, rows);
  for (int k = 0; k < m; ++k) kept.row(k) = A.row(independent[k]);
  const Eigen::VectorXd target = kept * w;

  std::vector<Eigen::VectorXd> corners;
  std::vector<int> subset(static_cast<std::size_t>(m));
  for (int k = 0; k < m; ++k) subset[k] = k;
  Eigen::MatrixXd basis(m, m);
  Eigen::FullPivLU<Eigen::MatrixXd> lu;  // its storage reused by every basis
  lu.setThreshold(1e-9);
  while (true) {
    for (int k = 0; k < m; ++k) basis.col(k) = kept.col(subset[k]);
    lu.compute(basis);
    if (lu.isInvertible()) {
      const Eigen::VectorXd x = lu.solve(target);
      if (x.allFinite() && x.minCoeff() >= -1e-9) {
        Eigen::VectorXd corner = Eigen::VectorXd::Zero(rows);
        for (int k = 0; k < m; ++k) corner(subset[k]) = x(k);
        corners.push_back(std::move(corner));
      }
    }
    // The next m-subset of 0..rows-1 in lexicographic order.
    int k = m - 1;
    while (k >= 0 && subset[k] == rows - m + k) --k;
    if (k < 0) break;
    ++subset[k];
    for (int j = k + 1; j < m; ++j) subset[j] = subset[j - 1] + 1;
  }
  return corners;
}

// When the corners are too many to visit: minimise w'_k on P for the most-attended token k,
// by a small active-set walk:
//   1. Directions that change neither the output (V^T n = 0), nor the total weight
//      (1^T n = 0), nor any weight already pushed to 0 (n_s = 0 for s in the active set)
//      form the null space of A = [V^T; 1^T; e_s^T ...].
//   2. Project -e_k onto that null space: the steepest way down for w'_k. It is -e_k less
//      its component in A's row space, whose dimension (rank A <= d + 1 + active) is small
//      where the null space's (L - rank A) is large.
//   3. Walk as far as every weight stays >= 0; the weight that hits 0 joins the active
//      set. Repeat until w'_k is 0 or no direction is left (at most L rounds).
Eigen::VectorXd walk_off_largest_weight(const Eigen::MatrixXd& scaled, const Eigen::VectorXd& w) {
  const int rows = static_cast<int>(scaled.rows());
  const int cols = static_cast<int>(scaled.cols());
  Eigen::Index k = 0;
  w.maxCoeff(&k);
  Eigen::VectorXd current = w;
  std::vector<int> active;
  for (int round = 0; round < rows; ++round) {
    Eigen::MatrixXd A(cols + 1 + static_cast<int>(active.size()), rows);
    A.setZero();
    A.topRows(cols) = scaled.transpose();
    A.row(cols).setOnes();
    for (std::size_t a = 0; a < active.size(); ++a) A(cols + 1 + static_cast<int>(a), active[a]) = 1;
    const std::vector<int> independent = independent_rows(A);
    if (static_cast<int>(independent.size()) == rows) break;  // no direction left
    // Orthonormal basis Q of the row space, from the independent rows by classical
    // Gram-Schmidt applied twice ("twice is enough": orthogonal to working precision, as a
    // Householder QR would give, without a QR's code in the module); then
    // n = -(I - Q Q^T) e_k.
    Eigen::MatrixXd Q(rows, static_cast<Eigen::Index>(independent.size()));
    for (Eigen::Index c = 0; c < Q.cols(); ++c) {
      Eigen::VectorXd v = A.row(independent[static_cast<std::size_t>(c)]).transpose();
      for (int pass = 0; pass < 2; ++pass) v -= Q.leftCols(c) * (Q.leftCols(c).transpose() * v);
      Q.col(c) = v / v.norm();
    }
    Eigen::VectorXd n = Q * Q.row(k).transpose();
    n(k) -= 1;
    if (!n.allFinite() || n.norm() < 1e-12 || n(k) > -1e-12) break;
    double step = std::numeric_limits<double>::infinity();
    int blocking = -1;
    for (int s = 0; s < rows; ++s) {
      if (n(s) < -1e-12 && current(s) / -n(s) < step) {
        step = current(s) / -n(s);
        blocking = s;
      }
    }
    if (blocking < 0) break;
    if (step <= 1e-12) {  // blocked at once: pin it, retry
      active.push_back(blocking);
      continue;
    }
    current += step * n;
    current(blocking) = 0;
    active.push_back(blocking);
    if (blocking == k) break;
  }
  return current;
}

}  // namespace

double cosine_similarity(const std::vector<float>& a, const std::vector<float>& b) {
  require_same_size(a, b);
  const int n = static_cast<int>(a.size());
  require_matrix(a, 1, n, "cosine similarity: first vector");
  require_matrix(b, 1, n, "cosine similarity: second vector");
  // Double accumulation: squares of float values up to 1e30 stay finite in double.
  double dot = 0, norm_a = 0, norm_b = 0;
  for (int i = 0; i < n; ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    norm_a += static_cast<double>(a[i]) * a[i];
    norm_b += static_cast<double>(b[i]) * b[i];
  }
  if (norm_a == 0 || norm_b == 0) return 0;
  return std::clamp(dot / (std::sqrt(norm_a) * std::sqrt(norm_b)), -1.0, 1.0);
}

std::vector<float> softmax(const std::vector<float>& scores) {
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const float s = scores[i];
    if (std::isnan(s) || s == std::numeric_limits<float>::infinity()) {
      throw InvalidArgument("scores: entry " + std::to_string(i) + " is " + describe_number(s) +
                            "; scores must be finite numbers (or -infinity for a masked token)");
    }
  }
  std::vector<float> weights(scores);
  const int n = static_cast<int>(weights.size());
  if (n > 0) active_kernels().softmax_rows(1, n, weights.data(), n);
  return weights;
}

std::vector<float> component_along(const std::vector<float>& matrix, int rows, int cols,
                                   const std::vector<float>& u) {
  require_in_range(rows, 0, 1 << 20, "component_along: rows");
  require_in_range(cols, 1, 1 << 20, "component_along: cols");
  require_matrix(matrix, rows, cols, "component_along: matrix");
  require_matrix(u, 1, cols, "direction u");
  const Eigen::Map<const MatrixF> m(matrix.data(), rows, cols);
  const Eigen::VectorXd direction = Eigen::Map<const Eigen::VectorXf>(u.data(), cols).cast<double>();
  const double norm = direction.norm();
  if (norm == 0) throw InvalidArgument("direction u: the zero vector has no direction");
  const Eigen::VectorXd along = m.cast<double>() * (direction / norm);
  std::vector<float> result(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    // |row . u / |u|| <= |row|, which can exceed float's range for rows of huge entries.
    if (!(std::abs(along(r)) <= std::numeric_limits<float>::max())) {
      throw InvalidArgument("component_along: row " + std::to_string(r) +
                            " is too large: its length along u overflows the float32 range");
    }
    result[r] = static_cast<float>(along(r));
  }
  return result;
}

AlternativeWeights find_alternative_weights(const std::vector<float>& values, int rows, int cols,
                                            const std::vector<float>& weights) {
  require_in_range(rows, 1, kMaxSeqLen, "values: rows (tokens)");
  require_in_range(cols, 1, kMaxModelWidth, "values: cols (width)");
  require_matrix(values, rows, cols, "values");
  require_matrix(weights, 1, rows, "weights");
  double total = 0;
  for (int s = 0; s < rows; ++s) {
    if (weights[s] < 0) {
      throw InvalidArgument("weights: entry " + std::to_string(s) + " is negative");
    }
    total += weights[s];
  }
  if (std::abs(total - 1.0) > kWeightsSumTolerance) {
    throw InvalidArgument("weights: they sum to " + describe_number(total) + ", not 1");
  }

  const Eigen::MatrixXd V =
      Eigen::Map<const MatrixF>(values.data(), rows, cols).cast<double>();
  const Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXf>(weights.data(), rows).cast<double>();

  AlternativeWeights result;
  const Eigen::VectorXd output = V.transpose() * w;
  result.output.assign(output.data(), output.data() + cols);

  // The weightings with w's output and total form a polytope P = { w' >= 0 : A w' = A w },
  // A = [V^T; 1^T]. The distance we maximise, the weight moved |w' - w|_1 / 2, is convex, so
  // its largest value on P sits at a corner of P. When the corners are few enough they are
  // all visited (exact: no corner but w means P is w alone); else the walk below finds one
  // alternative, not necessarily the farthest.
  const Eigen::MatrixXd scaled = scaled_columns(V);
  std::vector<Eigen::VectorXd> candidates;
  if (std::optional<std::vector<Eigen::VectorXd>> corners = corners_of_same_output_set(scaled, w)) {
    result.exhaustive = true;
    candidates = std::move(*corners);
  } else {
    candidates.push_back(walk_off_largest_weight(scaled, w));
  }
  // Farthest first; the first that holds up as returned (in float32) is the answer. Each
  // candidate's distance is computed once, and its index sorted.
  std::vector<double> moved(candidates.size());
  std::vector<std::size_t> order(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    moved[i] = (candidates[i] - w).cwiseAbs().sum() / 2;
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return moved[a] > moved[b]; });
  for (const std::size_t index : order) {
    const Eigen::VectorXd& candidate = candidates[index];
    if (!candidate.allFinite() || moved[index] < 1e-6) break;  // the rest are w itself
    // Clean rounding: clamp tiny negatives to 0 and restore w's total, then judge the
    // weights exactly as the caller receives them, in float32.
    Eigen::VectorXd best = candidate.cwiseMax(0.0);
    best *= w.sum() / best.sum();
    const Eigen::VectorXd returned = best.cast<float>().cast<double>();
    if (!is_verified_alternative(V, w, returned)) continue;
    result.found = true;
    result.weights.assign(static_cast<std::size_t>(rows), 0.0f);
    for (int s = 0; s < rows; ++s) result.weights[s] = static_cast<float>(returned(s));
    const Eigen::VectorXd alternative = V.transpose() * returned;
    result.alternative_output.assign(alternative.data(), alternative.data() + cols);
    result.max_output_difference = (V.transpose() * (returned - w)).cwiseAbs().maxCoeff();
    result.total_weight_moved = (returned - w).cwiseAbs().sum() / 2;
    return result;
  }
  // No corner but w holds up: with an exhaustive search, w is the only such weighting (a
  // corner refused only by float32 rounding moved less than its rounding can tell).
  return result;
}

std::vector<float> seeded_values(std::size_t count, std::uint32_t seed, float scale) {
  if (count > kMaxSeededValues) {
    throw InvalidArgument(message("seeded_values: at most kMaxSeededValues = ", kMaxSeededValues,
                                  " values, got ", count));
  }
  if (!std::isfinite(scale)) throw InvalidArgument("seeded_matrix: scale must be finite");
  std::uint32_t state = seed != 0 ? seed : 0x9e3779b9u;
  std::vector<float> values(count);
  for (float& v : values) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    v = (static_cast<float>(state >> 8) * (1.0f / 16777216.0f) * 2.0f - 1.0f) * scale;
  }
  return values;
}

std::vector<float> seeded_matrix(int rows, int cols, std::uint32_t seed, float scale) {
  require_in_range(rows, 0, kMaxSeededRows, "seeded_matrix: rows");
  require_in_range(cols, 0, kMaxModelWidth, "seeded_matrix: cols");
  return seeded_values(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), seed, scale);
}

}  // namespace mha
