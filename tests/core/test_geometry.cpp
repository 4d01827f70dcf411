// The blend demonstration's geometry: the reader that picks the most similar candidate, and
// the 2-D principal plane in which the head's output is drawn among the value vectors.
#include <catch2/catch.hpp>

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
