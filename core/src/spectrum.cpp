// Singular values of each head's similarity matrix W_Q^i (W_K^i)^T.
//
// The score between tokens s and t in head i is x_t W_Q^i (W_K^i)^T x_s^T / sqrt(d_k): a
// bilinear form with the d_model x d_model matrix M_i = W_Q^i (W_K^i)^T. M_i factors
// through d_k dimensions (d_model -> d_k -> d_model), so rank(M_i) <= d_k: a narrow head can
// only compare tokens along d_k directions. The lesson shows this by plotting all d_model
// singular values, of which at most d_k are non-zero.
//
// We form M_i explicitly in double precision and take its full SVD with Eigen's two-sided
// Jacobi method: accurate to near machine precision relative to the largest singular value
// (the zeros come out around 1e-16 of it), and small in code, which matters in wasm.
// Jacobi costs O(d_model^3) per sweep, fine for the lesson's widths (<= 64 in the widget;
// wider ones meet the work budget kMaxSpectrumMultiplyAdds, limits.hpp);
// M_i is square, so no QR preconditioner is needed. We do not use the cheaper factored
// form on purpose: the point is to *observe* the zeros, not to assume them.
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#include "mha/attention.hpp"
#include "mha/validation.hpp"

namespace mha {
namespace {

// An upper bound on the Jacobi sweeps these matrices need in practice, and the multiply-adds
// of one sweep: d (d - 1) / 2 rotations, each applied to two rows and two columns of length d.
constexpr std::uint64_t kJacobiSweepsBudgeted = 10;
std::uint64_t jacobi_sweep_multiply_adds(std::uint64_t d) { return 2 * d * d * d; }

}  // namespace

std::uint64_t spectrum_multiply_adds(const AttentionConfig& config) {
  const std::uint64_t d = static_cast<std::uint64_t>(config.d_model);
  const std::uint64_t d_k = static_cast<std::uint64_t>(config.d_k());
  return d * d * d_k + kJacobiSweepsBudgeted * jacobi_sweep_multiply_adds(d);
}

std::vector<double> MultiHeadAttention::similarity_singular_values(int head) const {
  check_head(head, "similarity_singular_values: head");
  require_within_budget(spectrum_multiply_adds(config_), kMaxSpectrumMultiplyAdds,
                        "kMaxSpectrumMultiplyAdds", "similarity_singular_values");
  const int d_k = config_.d_k();
  const auto block = [&](const MatrixF& packed) -> Eigen::MatrixXd {
    return packed.middleCols(static_cast<Eigen::Index>(head) * d_k, d_k).cast<double>();
  };
  const Eigen::MatrixXd similarity = block(w_q_) * block(w_k_).transpose();
  Eigen::JacobiSVD<Eigen::MatrixXd, Eigen::NoQRPreconditioner> svd(similarity);  // values only
  const Eigen::VectorXd& values = svd.singularValues();
  return std::vector<double>(values.data(), values.data() + values.size());
}

int numerical_rank(const std::vector<double>& singular_values, double tolerance) {
  if (singular_values.empty()) return 0;
  const double largest = *std::max_element(singular_values.begin(), singular_values.end());
  if (!(largest > 0)) return 0;
  return static_cast<int>(std::count_if(singular_values.begin(), singular_values.end(),
                                        [&](double s) { return s > tolerance * largest; }));
}

}  // namespace mha
