// Two small pieces of geometry the lesson's blend demonstration shows, computed by the core
// so that every number and every point on the page comes from the same C++ code.
//
//   * a reader: which of several candidate vectors does a reading resemble most?
//     (the "downstream reader" that tries to answer "who is the subject?" from the layer's
//     output, and fails when one head has blended the subject with something else);
//   * a plane: the best 2-D view of a set of points (their two principal directions), so
//     that the head's output can be drawn as a point among the value vectors it averages.
#pragma once

#include <vector>

namespace mha {

// For each of `rows` readings (rows x dim, row-major) and `count` candidates (count x dim):
// the cosine of every (reading, candidate) pair, computed in double, and the index of the
// candidate with the largest cosine (the first one on a tie). A zero reading resembles
// nothing: its cosines are all 0 and its choice is -1, so a reader that hears nothing is
// never counted as right.
//
// A tie: another candidate's cosine within kCosineTieTolerance of the best. Readings are
// float32 outputs of a forward pass, whose rounding moves a cosine by about 1e-7; two
// candidates that are equally similar in exact arithmetic can therefore come out in either
// order. Such a reading has no answer of its own (`tied` is 1): a reader must not count it as
// right or wrong, since float rounding, not the reading, decided it.
inline constexpr double kCosineTieTolerance = 1e-5;
struct NearestCandidates {
  std::vector<int> choice;       // rows entries: the best candidate, or -1
  std::vector<double> cosines;   // rows x count, row-major
  std::vector<int> tied;         // rows entries: 1 when another candidate ties with the best
};
NearestCandidates nearest_by_cosine(const std::vector<float>& readings, int rows, int dim,
                                    const std::vector<float>& candidates, int count);

// The plane through the centroid of `points` (count x dim) spanned by their two principal
// directions (the top two eigenvectors of the covariance, in double). Every point, and
// every extra point (extra_count x dim: e.g. a head's output), gets its 2-D coordinates in
// that plane. `explained` is the share of the points' spread (total variance) the plane
// shows: 1 when the points lie in a plane, less when the picture flattens some spread.
// Each axis is signed so that its largest-magnitude entry is positive, so the picture does
// not flip between calls. With dim == 1 the second axis is 0.
struct PrincipalPlane {
  std::vector<double> centre;             // dim
  std::vector<double> axes;               // 2 x dim, orthonormal rows (row 1 may be 0)
  std::vector<float> coordinates;         // count x 2
  std::vector<float> extra_coordinates;   // extra_count x 2
  double explained = 0;                   // 0..1 (1 when every point is the same)
};
PrincipalPlane principal_plane(const std::vector<float>& points, int count, int dim,
                               const std::vector<float>& extra, int extra_count);

}  // namespace mha
