// The blend demonstration's geometry: the reader that picks the most similar candidate, and
// the 2-D principal plane in which the head's output is drawn among the value vectors.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>

#include "mha/geometry.hpp"
#include "test_support.hpp"

using namespace mha;
using Catch::Contains;

TEST_CASE("nearest_by_cosine picks the candidate a reading resembles most", "[geometry]") {
  // Candidates: the four compass directions in the plane.
  const std::vector<float> candidates = {1, 0, 0, 1, -1, 0, 0, -1};
  // Readings: near east, a blend of north and west that leans west, the zero vector.
  const std::vector<float> readings = {2, 0.1f, -0.4f, 0.3f, 0, 0};
  const NearestCandidates nearest = nearest_by_cosine(readings, 3, 2, candidates, 4);
  CHECK(nearest.choice == std::vector<int>{0, 2, -1});
  CHECK(nearest.cosines[0] == Approx(2 / std::hypot(2.0, 0.1)));
  CHECK(nearest.cosines[1 * 4 + 2] == Approx(0.4 / 0.5));
  CHECK(nearest.cosines[1 * 4 + 1] == Approx(0.3 / 0.5));
  for (int c = 0; c < 4; ++c) CHECK(nearest.cosines[2 * 4 + c] == 0.0);  // hears nothing
  // Scale does not matter, only direction; huge values stay finite in double.
  CHECK(nearest_by_cosine({3e38f, 3e38f}, 1, 2, {1, 1, 1, -1}, 2).choice[0] == 0);
}

TEST_CASE("nearest_by_cosine marks a tie, within float rounding, as a tie", "[geometry]") {
  // North-east is as close to north as to east: a tie, in exact arithmetic and after a
  // float32 wobble of the reading (1e-7); a clear lean is no tie.
  const std::vector<float> candidates = {1, 0, 0, 1};
  const NearestCandidates nearest = nearest_by_cosine({1, 1, 1, 1.0000001f, 1, 1.1f}, 3, 2, candidates, 2);
  CHECK(nearest.tied == std::vector<int>{1, 1, 0});
  CHECK(nearest.choice[2] == 1);
  // Just outside the tolerance: decided. cos 45 deg +- 1e-5 apart needs a tilt of ~1.4e-5.
  const float tilt = 3e-5f;
  CHECK(nearest_by_cosine({1, 1 + tilt}, 1, 2, candidates, 2).tied == std::vector<int>{0});
  // A zero reading has no answer and no tie.
  CHECK(nearest_by_cosine({0, 0}, 1, 2, candidates, 2).tied == std::vector<int>{0});
}

TEST_CASE("nearest_by_cosine rejects bad input by name", "[geometry]") {
  CHECK_THROWS_WITH(nearest_by_cosine({1, 2}, 1, 2, {0, 0}, 1), Contains("candidates: row 0 is the zero vector"));
  CHECK_THROWS_WITH(nearest_by_cosine({1, NAN}, 1, 2, {1, 0}, 1), Contains("readings: entry (0, 1) is NaN"));
  CHECK_THROWS_WITH(nearest_by_cosine({1, 2, 3}, 1, 2, {1, 0}, 1), Contains("readings"));
  CHECK_THROWS_WITH(nearest_by_cosine({1, 2}, 1, 2, {1, 0}, 0), Contains("candidates: count"));
}

TEST_CASE("principal_plane: points in a plane are drawn without loss", "[geometry]") {
  // Points in the plane z = 1 of 3-D space, spread more along x than along y.
  const std::vector<float> points = {0, 0, 1, 4, 0, 1, 0, 1, 1, 4, 1, 1, 2, 0.5f, 1};
  const std::vector<float> extra = {2, 0.5f, 1, 6, 0, 1};
  const PrincipalPlane plane = principal_plane(points, 5, 3, extra, 2);
  CHECK(plane.explained == Approx(1.0));
  CHECK(plane.centre[0] == Approx(2.0));
  CHECK(plane.centre[1] == Approx(0.5));
  CHECK(plane.centre[2] == Approx(1.0));
  // First axis is x (the larger spread), signed positive; second is y.
  CHECK(std::abs(plane.axes[0]) == Approx(1.0));
  CHECK(plane.axes[0] > 0);
  CHECK(std::abs(plane.axes[3 + 1]) == Approx(1.0));
  // The centroid lands on the origin; distances in the plane equal distances in space.
  CHECK(plane.extra_coordinates[0] == Approx(0.0).margin(1e-6));
  CHECK(plane.extra_coordinates[1] == Approx(0.0).margin(1e-6));
  CHECK(plane.extra_coordinates[2] == Approx(4.0));
  const double dx = plane.coordinates[2] - plane.coordinates[0];
  const double dy = plane.coordinates[3] - plane.coordinates[1];
  CHECK(std::hypot(dx, dy) == Approx(4.0));
}

TEST_CASE("principal_plane: a convex combination lands at the same combination of the points", "[geometry]") {
  // The plane is affine, so a weighted average of points (a head's output) is drawn at the
  // same weighted average of their drawn positions, whatever the dimension.
  mha_test::Xorshift random(41);
  const int count = 9, dim = 5;
  std::vector<float> points(count * dim);
  for (float& v : points) v = random.uniform(-1, 1);
  std::vector<float> weights(count);
  double total = 0;
  for (float& w : weights) total += (w = random.uniform(0, 1));
  std::vector<float> average(dim, 0);
  for (int p = 0; p < count; ++p) {
    for (int j = 0; j < dim; ++j) average[j] += static_cast<float>(weights[p] / total) * points[p * dim + j];
  }
  const PrincipalPlane plane = principal_plane(points, count, dim, average, 1);
  CHECK(plane.explained > 0);
  CHECK(plane.explained < 1);  // five random dimensions do not fit in a plane
  for (int a = 0; a < 2; ++a) {
    double expected = 0;
    for (int p = 0; p < count; ++p) expected += weights[p] / total * plane.coordinates[p * 2 + a];
    CHECK(plane.extra_coordinates[a] == Approx(expected).margin(1e-5));
  }
}

TEST_CASE("principal_plane: degenerate and bad input", "[geometry]") {
  const PrincipalPlane same = principal_plane({1, 2, 1, 2}, 2, 2, {}, 0);
  CHECK(same.explained == 1.0);
  CHECK(same.coordinates == std::vector<float>{0, 0, 0, 0});
  const PrincipalPlane line = principal_plane({1, 3, -2}, 3, 1, {}, 0);
  CHECK(line.axes[1] == 0.0);  // one dimension: the second axis is empty
  CHECK(line.coordinates[0 * 2 + 0] == Approx(0.3333333));
  CHECK_THROWS_WITH(principal_plane({1, INFINITY}, 1, 2, {}, 0), Contains("points: entry (0, 1) is infinity"));
  CHECK_THROWS_WITH(principal_plane({1, 2}, 1, 2, {1}, 1), Contains("extra points"));
  CHECK_THROWS_WITH(principal_plane({}, 0, 2, {}, 0), Contains("points: count"));
  CHECK_THROWS_WITH(principal_plane({3e38f, -3e38f, -3e38f, 3e38f}, 2, 2, {}, 0), Contains("overflows"));
}

TEST_CASE("principal_plane: its hand-written eigensolver against Eigen's, on random and degenerate clouds", "[geometry]") {
  // The reference: Eigen's SelfAdjointEigenSolver on the same covariance, in double. Over
  // clouds of 2 to 40 points in 1 to 24 dimensions, some confined to a random subspace of
  // rank 1 to 3 and some with repeated points: the fraction of spread the plane shows
  // agrees, the axes are orthonormal, and where the reference's top two spreads are apart
  // (so its directions are defined), each axis is its direction, up to sign.
  mha_test::Xorshift random(2026);
  int compared_axes = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int count = 2 + random.below(39), dim = 1 + random.below(24);
    const int rank = trial % 3 == 0 ? 1 + random.below(3) : dim;
    Eigen::MatrixXd basis = Eigen::MatrixXd::Zero(rank, dim);
    for (int r = 0; r < rank; ++r) for (int j = 0; j < dim; ++j) basis(r, j) = random.uniform(-1, 1);
    std::vector<float> points(static_cast<std::size_t>(count) * dim);
    for (int p = 0; p < count; ++p) {
      if (trial % 5 == 1 && p > 0 && random.below(2) == 0) {  // a repeated point
        std::copy_n(points.begin() + (p - 1) * dim, dim, points.begin() + p * dim);
        continue;
      }
      Eigen::RowVectorXd x = Eigen::RowVectorXd::Zero(dim);
      for (int r = 0; r < rank; ++r) x += random.uniform(-2, 2) * basis.row(r);
      for (int j = 0; j < dim; ++j) points[p * dim + j] = static_cast<float>(x(j));
    }
    const PrincipalPlane plane = principal_plane(points, count, dim, {}, 0);

    Eigen::MatrixXd P(count, dim);
    for (int p = 0; p < count; ++p) for (int j = 0; j < dim; ++j) P(p, j) = points[p * dim + j];
    const Eigen::MatrixXd centred = P.rowwise() - P.colwise().mean();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> reference(centred.transpose() * centred);
    const Eigen::VectorXd spread = reference.eigenvalues().cwiseMax(0.0);
    const double total = spread.sum();
    const double shown = spread(dim - 1) + (dim > 1 ? spread(dim - 2) : 0.0);
    const double expected = total > 0 ? std::min(1.0, shown / total) : 1.0;
    INFO("trial " << trial << ": " << count << " points in " << dim << " dimensions, rank " << rank);
    CHECK(plane.explained == Approx(expected).margin(1e-10));

    const double scale = spread(dim - 1);
    for (int a = 0; a < 2 && a < dim; ++a) {
      Eigen::Map<const Eigen::VectorXd> axis(plane.axes.data() + a * dim, dim);
      const double length = axis.norm();
      if (scale > 0) CHECK(length == Approx(1.0).margin(1e-12));
      const double own = spread(dim - 1 - a);
      const double below = dim - 2 - a >= 0 ? spread(dim - 2 - a) : -1.0;
      const double above = a == 0 ? std::numeric_limits<double>::infinity() : spread(dim - 1);
      if (scale > 0 && own - below > 1e-6 * scale && above - own > 1e-6 * scale) {
        CHECK(std::abs(axis.dot(reference.eigenvectors().col(dim - 1 - a))) == Approx(1.0).margin(1e-8));
        ++compared_axes;
      }
    }
    if (dim > 1 && scale > 0) {
      Eigen::Map<const Eigen::VectorXd> first(plane.axes.data(), dim), second(plane.axes.data() + dim, dim);
      if (second.norm() > 0) CHECK(std::abs(first.dot(second)) < 1e-10);
    }
  }
  CHECK(compared_axes > 200);  // most axes were defined and compared
}
