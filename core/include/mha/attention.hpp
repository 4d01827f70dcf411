// Multi-head self-attention, keeping every intermediate the lesson shows.
//
//   head_i    = softmax(Q_i K_i^T / sqrt(d_k) [+ causal mask]) V_i,
//               Q_i = X W_Q^i, K_i = X W_K^i, V_i = X W_V^i         (each L x d_k)
//   Concat    = [head_1 | head_2 | ... | head_h]                     (L x d_model)
//   Output    = Concat W_O = sum_i head_i W_O^i                      (L x d_model)
//
// where W_O^i is the block of d_v rows of W_O that head i's slice of Concat multiplies.
// d_k = d_v = d_model / h. Storage: W_Q, W_K and W_V are each held as one d_model x d_model
// matrix whose column block i (columns i*d_k .. (i+1)*d_k - 1) is W_Q^i etc.; this is the
// standard packing, and it lets one matrix product project all heads at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mha/errors.hpp"
#include "mha/limits.hpp"
#include "mha/matrix.hpp"

namespace mha {

struct AttentionConfig {
  int seq_len = 0;     // L, number of tokens
  int d_model = 0;     // model width
  int num_heads = 0;   // h, must divide d_model
  bool causal = false; // token t may attend only to tokens s <= t

  int d_k() const { return d_model / num_heads; }
};

// Multiply-add counts of one forward pass, added up by the forward pass itself as it calls
// each kernel (m * n * k per matrix product). The attention part, scores + weighted_sum,
// is 2 * L^2 * d_model whatever h is: h heads * L^2 * d_k = L^2 * d_model for each.
struct OperationCounts {
  std::uint64_t projections = 0;  // X W_Q, X W_K, X W_V: 3 * L * d_model^2
  std::uint64_t scores = 0;       // Q_i K_i^T over all heads: h * L^2 * d_k
  std::uint64_t weighted_sum = 0; // A_i V_i over all heads: h * L^2 * d_k
  std::uint64_t output = 0;       // Concat W_O: L * d_model^2
  std::uint64_t exponentials = 0; // softmax exp() evaluations: h * L^2
  std::uint64_t attention() const { return scores + weighted_sum; }
  std::uint64_t total_multiply_adds() const {
    return projections + scores + weighted_sum + output;
  }
};

struct HeadTrace {
  MatrixF scores;       // L x L, Q_i K_i^T / sqrt(d_k); masked entries are -infinity
  MatrixF weights;      // L x L, rows non-negative and summing to 1 (or all 0 if fully masked)
  MatrixF output;       // L x d_k, weights * V_i
  MatrixF contribution; // L x d_model, head_i W_O^i (empty unless requested)
  bool weights_overridden = false;  // weights were supplied by the caller, not softmax
};

struct ForwardTrace {
  MatrixF queries, keys, values;  // L x d_model each; head i is column block i
  std::vector<HeadTrace> heads;
  MatrixF concat;                 // L x d_model
  MatrixF output;                 // L x d_model
  OperationCounts counts;
};

struct ForwardOptions {
  // Also compute head_i W_O^i for every head (costs one more L x d_model^2 of work).
  bool per_head_contributions = true;
  // Keep each head's L x L scores and weights in the trace. Without it (the lean path, for
  // timing), HeadTrace::scores and weights stay empty and no L x L matrix is stored; the
  // heads' outputs, Concat and the output are the same.
  bool keep_attention = true;
  // Copy each head's output (its d_k columns of Concat) into HeadTrace::output. Without it
  // HeadTrace::output stays empty; the same numbers are Concat's column block i.
  bool head_outputs = true;
};

// Buffers the forward pass reuses between calls of forward_into(): sized on first use and
// kept, so that calling again with the same shape and options allocates nothing.
struct ForwardScratch {
  MatrixF keys_t;          // d_k x L: one head's K_i^T, pre-scaled by 1/sqrt(d_k)
  MatrixF block_scores;    // rows x L: one block of query rows' scores (lean path only)
  std::vector<float> row_sums;  // one block's softmax row sums
};

enum class Projection { Query, Key, Value };

class MultiHeadAttention {
 public:
  // Throws InvalidArgument unless L >= 1, d_model >= 1, h >= 1, h divides d_model, and the
  // sizes stay within kMaxSeqLen / kMaxModelWidth (limits.hpp). All weights start at zero.
  explicit MultiHeadAttention(const AttentionConfig& config);

  static constexpr int kMaxSeqLen = mha::kMaxSeqLen;
  static constexpr int kMaxModelWidth = mha::kMaxModelWidth;

  const AttentionConfig& config() const { return config_; }

  // W_Q^i / W_K^i / W_V^i of one head: d_model x d_k values, row-major.
  void set_head_projection(Projection which, int head, const std::vector<float>& values);
  std::vector<float> head_projection(Projection which, int head) const;
  // The whole packed W_Q / W_K / W_V: d_model x d_model values, row-major.
  void set_projection(Projection which, const std::vector<float>& values);
  // W_O: d_model x d_model values, row-major.
  void set_output_projection(const std::vector<float>& values);
  const MatrixF& projection(Projection which) const;
  const MatrixF& output_projection() const { return w_o_; }

  // Fills every weight with values drawn uniformly from +/- sqrt(3 / d_model) (unit
  // variance after projection of unit-variance inputs), from a fixed 32-bit seed, with
  // seeded_matrix() (lesson_math.hpp). The same seed gives the same weights everywhere.
  void randomize(std::uint32_t seed);

  // The caller supplies head `head`'s attention weights (L x L, row-major), replacing
  // softmax(scores) in the forward pass. Rows must be finite, non-negative and sum to 1
  // within 1e-4; with a causal mask, entries above the diagonal must be 0. Otherwise
  // InvalidArgument (use renormalize_rows() first to accept any non-negative rows).
  void set_attention_override(int head, const std::vector<float>& weights);
  void clear_attention_override(int head);
  bool has_attention_override(int head) const;

  // Runs the forward pass on X (L x d_model values, row-major). Throws InvalidArgument,
  // before any work, when forward_multiply_adds() exceeds kMaxForwardMultiplyAdds.
  ForwardTrace forward(const std::vector<float>& x, const ForwardOptions& options = {}) const;
  // The same pass on x[0 .. count) into `trace`, whose matrices are resized only when the
  // shape or the options change: called again with the same model and options, it does
  // not allocate (what the bindings' fast path relies on). On an exception `trace` holds
  // partial results and must not be used.
  void forward_into(const float* x, std::size_t count, const ForwardOptions& options,
                    ForwardTrace& trace, ForwardScratch& scratch) const;

  // Singular values, in decreasing order, of head i's similarity matrix
  // W_Q^i (W_K^i)^T (d_model x d_model), computed in double precision. At most d_k of them
  // are non-zero, because the product goes through a d_k-dimensional space. Throws
  // InvalidArgument, before any work, when spectrum_multiply_adds() exceeds
  // kMaxSpectrumMultiplyAdds.
  std::vector<double> similarity_singular_values(int head) const;

 private:
  void check_head(int head, const char* what) const;
  MatrixF& mutable_projection(Projection which);

  AttentionConfig config_;
  MatrixF w_q_, w_k_, w_v_, w_o_;
  std::vector<std::optional<MatrixF>> overrides_;
};

// The multiply-adds one forward pass with this shape and these options does: the counted
// products (OperationCounts::total_multiply_adds) plus, with per_head_contributions, the
// L x d_model^2 of the heads' contributions. What the work budget is checked against.
std::uint64_t forward_multiply_adds(const AttentionConfig& config, const ForwardOptions& options);

// An upper estimate of the multiply-adds of similarity_singular_values() for this shape:
// the product W_Q^i (W_K^i)^T (d_model^2 d_k) and ten Jacobi sweeps of about 2 d_model^3
// each (the sweeps needed for these matrices in practice stay below ten).
std::uint64_t spectrum_multiply_adds(const AttentionConfig& config);

// Divides each row of an L x L weight matrix by its sum, so that it can be used as an
// override. Entries must be finite and non-negative and each row must have a positive sum;
// otherwise InvalidArgument naming the row.
std::vector<float> renormalize_rows(const std::vector<float>& weights, int rows, int cols);

// Number of singular values above tolerance * largest (0 for an all-zero matrix).
int numerical_rank(const std::vector<double>& singular_values, double tolerance = 1e-6);

const char* projection_name(Projection which);  // "W_Q", "W_K", "W_V"

}  // namespace mha
