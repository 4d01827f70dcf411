#include "mha/geometry.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "mha/errors.hpp"
#include "mha/matrix.hpp"
#include "mha/validation.hpp"

namespace mha {
namespace {

// Sizes the lesson needs are tiny; these bounds keep a hostile call cheap (the plane's
// eigen-decomposition is dim^3, the reader rows * count * dim).
constexpr int kMaxGeometryRows = 4096;
constexpr int kMaxGeometryDim = 512;

Eigen::MatrixXd as_double(const std::vector<float>& values, int rows, int cols) {
  return Eigen::Map<const MatrixF>(values.data(), rows, cols).cast<double>();
}

}  // namespace

NearestCandidates nearest_by_cosine(const std::vector<float>& readings, int rows, int dim,
                                    const std::vector<float>& candidates, int count) {
  require_in_range(rows, 0, kMaxGeometryRows, "readings: rows");
  require_in_range(dim, 1, kMaxGeometryDim, "readings: width");
  require_in_range(count, 1, kMaxGeometryRows, "candidates: count");
  require_matrix(readings, rows, dim, "readings");
  require_matrix(candidates, count, dim, "candidates");
  const Eigen::MatrixXd R = as_double(readings, rows, dim);
  const Eigen::MatrixXd C = as_double(candidates, count, dim);
  // cos(r, c) = r.c / (|r| |c|). Norms in double: squares of floats up to 3e38 stay finite.
  const Eigen::VectorXd reading_norms = R.rowwise().norm();
  const Eigen::VectorXd candidate_norms = C.rowwise().norm();
  for (int c = 0; c < count; ++c) {
    if (candidate_norms(c) == 0) {
      throw InvalidArgument("candidates: row " + std::to_string(c) +
                            " is the zero vector, which resembles nothing");
    }
  }
  NearestCandidates result;
  result.choice.assign(static_cast<std::size_t>(rows), -1);
  result.cosines.assign(static_cast<std::size_t>(rows) * count, 0.0);
  result.tied.assign(static_cast<std::size_t>(rows), 0);
  for (int r = 0; r < rows; ++r) {
    if (reading_norms(r) == 0) continue;
    double best = -2;
    for (int c = 0; c < count; ++c) {
      const double cosine = R.row(r).dot(C.row(c)) / (reading_norms(r) * candidate_norms(c));
      result.cosines[static_cast<std::size_t>(r) * count + c] = cosine;
      if (cosine > best) {
        best = cosine;
        result.choice[r] = c;
      }
    }
    for (int c = 0; c < count; ++c) {
      const double cosine = result.cosines[static_cast<std::size_t>(r) * count + c];
      if (c != result.choice[r] && best - cosine <= kCosineTieTolerance) result.tied[r] = 1;
    }
  }
  return result;
}

PrincipalPlane principal_plane(const std::vector<float>& points, int count, int dim,
                               const std::vector<float>& extra, int extra_count) {
  require_in_range(count, 1, kMaxGeometryRows, "points: count");
  require_in_range(dim, 1, kMaxGeometryDim, "points: width");
  require_in_range(extra_count, 0, kMaxGeometryRows, "extra points: count");
  require_matrix(points, count, dim, "points");
  require_matrix(extra, extra_count, dim, "extra points");
  const Eigen::MatrixXd P = as_double(points, count, dim);
  const Eigen::RowVectorXd centre = P.colwise().mean();
  const Eigen::MatrixXd centred = P.rowwise() - centre;
  // Covariance (up to the factor 1/count, which changes no direction): its eigenvectors are
  // the principal directions, its eigenvalues the spread along each. The solver returns them
  // in increasing order, so the last two columns are the plane.
  const Eigen::MatrixXd covariance = centred.transpose() * centred;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(covariance);
  if (solver.info() != Eigen::Success) throw InvalidArgument("points: their spread could not be analysed");
  Eigen::MatrixXd axes = Eigen::MatrixXd::Zero(2, dim);
  const Eigen::VectorXd spread = solver.eigenvalues().cwiseMax(0.0);
  for (int a = 0; a < 2 && a < dim; ++a) {
    Eigen::VectorXd axis = solver.eigenvectors().col(dim - 1 - a);
    Eigen::Index largest = 0;
    axis.cwiseAbs().maxCoeff(&largest);
    if (axis(largest) < 0) axis = -axis;
    axes.row(a) = axis.transpose();
  }
  const double total = spread.sum();
  const double shown = spread(dim - 1) + (dim > 1 ? spread(dim - 2) : 0.0);

  PrincipalPlane result;
  result.centre.assign(centre.data(), centre.data() + dim);
  result.axes.resize(static_cast<std::size_t>(2) * dim);
  for (int a = 0; a < 2; ++a) {
    for (int j = 0; j < dim; ++j) result.axes[static_cast<std::size_t>(a) * dim + j] = axes(a, j);
  }
  result.explained = total > 0 ? std::min(1.0, shown / total) : 1.0;
  auto project = [&](const Eigen::MatrixXd& rows_of_points, std::vector<float>& out) {
    const Eigen::MatrixXd coordinates = (rows_of_points.rowwise() - centre) * axes.transpose();
    out.resize(static_cast<std::size_t>(coordinates.rows()) * 2);
    for (Eigen::Index r = 0; r < coordinates.rows(); ++r) {
      for (int a = 0; a < 2; ++a) {
        const double v = coordinates(r, a);
        if (!(std::abs(v) <= 3.0e38)) {
          throw InvalidArgument("points: a coordinate in the plane overflows the float32 range");
        }
        out[static_cast<std::size_t>(r) * 2 + a] = static_cast<float>(v);
      }
    }
  };
  project(centred.rowwise() + centre, result.coordinates);
  project(as_double(extra, extra_count, dim), result.extra_coordinates);
  return result;
}

}  // namespace mha
