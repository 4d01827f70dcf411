#include "mha/geometry.hpp"

#include <Eigen/Core>
#include <algorithm>
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

// Symmetric eigen-decomposition by Householder reduction to tridiagonal form and the implicit
// QL algorithm: EISPACK's tred2 and tql2 (Bowdler, Martin, Reinsch and Wilkinson, Handbook for
// Automatic Computation, vol. II), as in the public-domain JAMA, in the three functions below.
// Eigen's SelfAdjointEigenSolver does the same work and was about 10 kB of the gzipped wasm
// module, these about 1 kB, at the same speed in wasm (Eigen is not vectorised there). Two
// changes from JAMA: the matrix is scaled to a largest entry of 1 first (as Eigen does), and a
// subdiagonal entry counts as zero against the whole tridiagonal matrix's size, not the part
// visited so far (JAMA's running maximum let rank-one matrices of width 99 iterate on entries
// near 1e-100 until the rotations lost their orthogonality). Checked against Eigen's solver
// on 60,000 matrices (widths 1 to 200, ties, zero columns, rank one, scales 1e-30 to 1e35):
// eigenvalues within 1e-14 of the largest, eigenvectors orthonormal within 1e-14.

// tred2: V (symmetric on entry) = Q T Q^T with T tridiagonal; on return V holds Q, d T's
// diagonal and e its subdiagonal (e(i) below d(i), e(0) = 0).
void tridiagonalize(Eigen::MatrixXd& V, Eigen::VectorXd& d, Eigen::VectorXd& e) {
  const int n = static_cast<int>(V.rows());
  for (int j = 0; j < n; ++j) d(j) = V(n - 1, j);
  for (int i = n - 1; i > 0; --i) {
    double row_scale = 0, h = 0;
    for (int k = 0; k < i; ++k) row_scale += std::abs(d(k));
    if (row_scale == 0) {
      e(i) = d(i - 1);
      for (int j = 0; j < i; ++j) {
        d(j) = V(i - 1, j);
        V(i, j) = 0;
        V(j, i) = 0;
      }
      d(i) = h;
      continue;
    }
    // The Householder vector of row i, then the similarity transformation of the rest.
    for (int k = 0; k < i; ++k) {
      d(k) /= row_scale;
      h += d(k) * d(k);
    }
    double f = d(i - 1);
    double g = f > 0 ? -std::sqrt(h) : std::sqrt(h);
    e(i) = row_scale * g;
    h -= f * g;
    d(i - 1) = f - g;
    for (int j = 0; j < i; ++j) e(j) = 0;
    for (int j = 0; j < i; ++j) {
      f = d(j);
      V(j, i) = f;
      g = e(j) + V(j, j) * f;
      for (int k = j + 1; k <= i - 1; ++k) {
        g += V(k, j) * d(k);
        e(k) += V(k, j) * f;
      }
      e(j) = g;
    }
    f = 0;
    for (int j = 0; j < i; ++j) {
      e(j) /= h;
      f += e(j) * d(j);
    }
    const double hh = f / (h + h);
    for (int j = 0; j < i; ++j) e(j) -= hh * d(j);
    for (int j = 0; j < i; ++j) {
      f = d(j);
      g = e(j);
      for (int k = j; k <= i - 1; ++k) V(k, j) -= f * e(k) + g * d(k);
      d(j) = V(i - 1, j);
      V(i, j) = 0;
    }
    d(i) = h;
  }
  // Accumulate the transformations into V.
  for (int i = 0; i < n - 1; ++i) {
    V(n - 1, i) = V(i, i);
    V(i, i) = 1;
    const double h = d(i + 1);
    if (h != 0) {
      for (int k = 0; k <= i; ++k) d(k) = V(k, i + 1) / h;
      for (int j = 0; j <= i; ++j) {
        double g = 0;
        for (int k = 0; k <= i; ++k) g += V(k, i + 1) * V(k, j);
        for (int k = 0; k <= i; ++k) V(k, j) -= g * d(k);
      }
    }
    for (int k = 0; k <= i; ++k) V(k, i + 1) = 0;
  }
  for (int j = 0; j < n; ++j) {
    d(j) = V(n - 1, j);
    V(n - 1, j) = 0;
  }
  V(n - 1, n - 1) = 1;
  e(0) = 0;
}

// tql2: the eigenvalues of the tridiagonal (d, e) into d, unsorted, its rotations applied to
// V's columns. False if an eigenvalue needs more than 30 iterations (EISPACK's limit).
bool tridiagonal_ql(Eigen::MatrixXd& V, Eigen::VectorXd& d, Eigen::VectorXd& e) {
  const int n = static_cast<int>(V.rows());
  for (int i = 1; i < n; ++i) e(i - 1) = e(i);
  e(n - 1) = 0;
  double size = 0;
  for (int l = 0; l < n; ++l) size = std::max(size, std::abs(d(l)) + std::abs(e(l)));
  const double negligible = std::ldexp(1.0, -52) * size;
  double shift = 0;
  for (int l = 0; l < n; ++l) {
    int m = l;
    while (m < n - 1 && std::abs(e(m)) > negligible) ++m;
    for (int iteration = 0; m > l && std::abs(e(l)) > negligible; ++iteration) {
      if (iteration == 30) return false;
      // The implicit shift, then one QL sweep from m up to l.
      double g = d(l);
      double p = (d(l + 1) - g) / (2 * e(l));
      double r = std::hypot(p, 1.0);
      if (p < 0) r = -r;
      d(l) = e(l) / (p + r);
      d(l + 1) = e(l) * (p + r);
      const double dl1 = d(l + 1);
      double h = g - d(l);
      for (int i = l + 2; i < n; ++i) d(i) -= h;
      shift += h;
      p = d(m);
      double c = 1, c2 = 1, c3 = 1, s = 0, s2 = 0;
      const double el1 = e(l + 1);
      for (int i = m - 1; i >= l; --i) {
        c3 = c2;
        c2 = c;
        s2 = s;
        g = c * e(i);
        h = c * p;
        r = std::hypot(p, e(i));
        e(i + 1) = s * r;
        s = e(i) / r;
        c = p / r;
        p = c * d(i) - s * g;
        d(i + 1) = h + s * (c * g + s * d(i));
        for (int k = 0; k < n; ++k) {
          h = V(k, i + 1);
          V(k, i + 1) = s * V(k, i) + c * h;
          V(k, i) = c * V(k, i) - s * h;
        }
      }
      p = -s * s2 * c3 * el1 * e(l) / dl1;
      e(l) = s * p;
      d(l) = c * p;
    }
    d(l) += shift;
    e(l) = 0;
  }
  return true;
}

// The eigenvalues of the symmetric matrix V into `values`, ascending (as Eigen's solver
// returns them), and its eigenvectors into V's columns; false as tridiagonal_ql.
bool symmetric_eigen(Eigen::MatrixXd& V, Eigen::VectorXd& values) {
  const int n = static_cast<int>(V.rows());
  const double scale = V.cwiseAbs().maxCoeff();
  if (scale > 0) V /= scale;
  values.resize(n);
  Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
  tridiagonalize(V, values, e);
  if (!tridiagonal_ql(V, values, e)) return false;
  values *= scale;
  for (int i = 0; i < n - 1; ++i) {
    int k = i;
    for (int j = i + 1; j < n; ++j) {
      if (values(j) < values(k)) k = j;
    }
    if (k != i) {
      std::swap(values(k), values(i));
      V.col(i).swap(V.col(k));
    }
  }
  return true;
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
  // the principal directions, its eigenvalues the spread along each, in increasing order, so
  // the last two columns are the plane.
  Eigen::MatrixXd eigenvectors = centred.transpose() * centred;
  Eigen::VectorXd eigenvalues;
  if (!symmetric_eigen(eigenvectors, eigenvalues)) throw InvalidArgument("points: their spread could not be analysed");
  Eigen::MatrixXd axes = Eigen::MatrixXd::Zero(2, dim);
  const Eigen::VectorXd spread = eigenvalues.cwiseMax(0.0);
  for (int a = 0; a < 2 && a < dim; ++a) {
    Eigen::VectorXd axis = eigenvectors.col(dim - 1 - a);
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
