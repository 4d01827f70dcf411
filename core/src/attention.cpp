// The multi-head attention forward pass. The structure follows the mathematics one step
// at a time, and every matrix product goes through the active KernelSet (see kernels.hpp)
// via count_gemm_*(), which also adds its m * n * k multiply-adds to the operation counts:
// the counts the page shows are those of the work actually done.
#include "mha/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mha/kernels.hpp"
#include "mha/lesson_math.hpp"
#include "mha/validation.hpp"

namespace mha {
namespace {

constexpr float kNegativeInfinity = -std::numeric_limits<float>::infinity();
// Supplied attention rows must sum to 1 within this (float rounding of typed-in weights).
constexpr double kRowSumTolerance = 1e-4;

std::uint64_t product_size(int m, int n, int k) {
  return static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n) *
         static_cast<std::uint64_t>(k);
}

std::string head_label(int head) { return "head " + std::to_string(head); }

// Products can overflow float's range even when every input is finite (e.g. entries of
// 1e30). Rather than let infinity or NaN flow into the page, the step that overflowed is
// named (with its head, if head >= 0). Masked scores (-infinity by design) are skipped by
// the caller. The test is the kernel set's all_finite (SIMD in the page's module): Eigen's
// allFinite is a scalar loop in wasm, and at L = d_model = 512 the checks of Q, K, V,
// Concat and the output cover 1.3 million entries per pass.
void require_finite_result(const KernelSet& kernels, const float* data, Eigen::Index rows,
                           Eigen::Index cols, Eigen::Index ld, const char* what, int head = -1) {
  if (kernels.all_finite(static_cast<int>(rows), static_cast<int>(cols), data, static_cast<int>(ld))) {
    return;  // the common case builds no string
  }
  std::string name = what;
  if (head >= 0) name += " of " + head_label(head);
  throw InvalidArgument(name + " overflowed the float32 range (about 3.4e38): the inputs or "
                        "weights are too large in magnitude");
}

// The same for a whole (dense, row-major) matrix.
void require_finite_result(const KernelSet& kernels, const MatrixF& m, const char* what) {
  require_finite_result(kernels, m.data(), m.rows(), m.cols(), m.cols(), what);
}

}  // namespace

std::uint64_t forward_multiply_adds(const AttentionConfig& config, const ForwardOptions& options) {
  const int L = config.seq_len, d = config.d_model;
  const std::uint64_t per_projection = product_size(L, d, d);  // X W, and Concat W_O
  const std::uint64_t attention = 2 * product_size(L, L, d);   // scores and weighted sums
  return 4 * per_projection + attention + (options.per_head_contributions ? per_projection : 0);
}

const char* projection_name(Projection which) {
  switch (which) {
    case Projection::Query: return "W_Q";
    case Projection::Key: return "W_K";
    case Projection::Value: return "W_V";
  }
  return "W_?";
}

MultiHeadAttention::MultiHeadAttention(const AttentionConfig& config) : config_(config) {
  require_in_range(config.seq_len, 1, kMaxSeqLen, "seq_len (L)");
  require_in_range(config.d_model, 1, kMaxModelWidth, "d_model");
  require_in_range(config.num_heads, 1, config.d_model, "num_heads (h)");
  if (config.d_model % config.num_heads != 0) {
    throw InvalidArgument(message("num_heads (h): must divide d_model = ", config.d_model,
                                  " so that every head has the same width d_k = d_model / h, "
                                  "got h = ", config.num_heads));
  }
  const int d = config.d_model;
  w_q_ = MatrixF::Zero(d, d);
  w_k_ = MatrixF::Zero(d, d);
  w_v_ = MatrixF::Zero(d, d);
  w_o_ = MatrixF::Zero(d, d);
  overrides_.resize(static_cast<std::size_t>(config.num_heads));
}

void MultiHeadAttention::check_head(int head, const char* what) const {
  require_in_range(head, 0, config_.num_heads - 1, what);
}

const MatrixF& MultiHeadAttention::projection(Projection which) const {
  switch (which) {
    case Projection::Query: return w_q_;
    case Projection::Key: return w_k_;
    case Projection::Value: return w_v_;
  }
  return w_q_;
}

MatrixF& MultiHeadAttention::mutable_projection(Projection which) {
  return const_cast<MatrixF&>(static_cast<const MultiHeadAttention&>(*this).projection(which));
}

void MultiHeadAttention::set_head_projection(Projection which, int head,
                                             const std::vector<float>& values) {
  const std::string name = std::string(projection_name(which)) + " of " + head_label(head);
  check_head(head, (std::string(projection_name(which)) + ": head").c_str());
  const int d = config_.d_model, d_k = config_.d_k();
  require_matrix(values, d, d_k, name);
  mutable_projection(which).middleCols(static_cast<Eigen::Index>(head) * d_k, d_k) =
      Eigen::Map<const MatrixF>(values.data(), d, d_k);
}

std::vector<float> MultiHeadAttention::head_projection(Projection which, int head) const {
  check_head(head, (std::string(projection_name(which)) + ": head").c_str());
  const int d = config_.d_model, d_k = config_.d_k();
  MatrixF block = projection(which).middleCols(static_cast<Eigen::Index>(head) * d_k, d_k);
  return std::vector<float>(block.data(), block.data() + static_cast<std::size_t>(d) * d_k);
}

void MultiHeadAttention::set_projection(Projection which, const std::vector<float>& values) {
  const int d = config_.d_model;
  require_matrix(values, d, d, projection_name(which));
  mutable_projection(which) = Eigen::Map<const MatrixF>(values.data(), d, d);
}

void MultiHeadAttention::set_output_projection(const std::vector<float>& values) {
  const int d = config_.d_model;
  require_matrix(values, d, d, "W_O");
  w_o_ = Eigen::Map<const MatrixF>(values.data(), d, d);
}

void MultiHeadAttention::randomize(std::uint32_t seed) {
  // One seeded stream, split in order into W_Q, W_K, W_V and W_O. Uniform on +/- a with
  // a = sqrt(3 / d_model) has variance 1 / d_model, so a projection of unit-variance
  // inputs has unit variance.
  // (Drawn with seeded_values: 4 d_model rows exceed seeded_matrix's row limit for
  // d_model > kMaxModelWidth / 4.)
  const int d = config_.d_model;
  const std::vector<float> stream = seeded_values(4 * static_cast<std::size_t>(d) * static_cast<std::size_t>(d),
                                                  seed, std::sqrt(3.0f / static_cast<float>(d)));
  MatrixF* targets[] = {&w_q_, &w_k_, &w_v_, &w_o_};
  for (int m = 0; m < 4; ++m) {
    *targets[m] = Eigen::Map<const MatrixF>(stream.data() + static_cast<std::size_t>(m) * d * d, d, d);
  }
}

void MultiHeadAttention::set_attention_override(int head, const std::vector<float>& weights) {
  check_head(head, "attention override: head");
  const int L = config_.seq_len;
  const std::string name = "attention weights of " + head_label(head);
  require_matrix(weights, L, L, name);
  for (int t = 0; t < L; ++t) {
    double sum = 0;
    for (int s = 0; s < L; ++s) {
      const float w = weights[static_cast<std::size_t>(t) * L + s];
      if (w < 0) {
        throw InvalidArgument(message(name, ": entry (", t, ", ", s, ") is ", w,
                                      "; attention weights must be non-negative"));
      }
      if (config_.causal && s > t && w != 0) {
        throw InvalidArgument(message(name, ": entry (", t, ", ", s, ") is ", w,
                                      ", but the causal mask lets token ", t,
                                      " attend only to tokens 0..", t));
      }
      sum += w;
    }
    if (std::abs(sum - 1.0) > kRowSumTolerance) {
      throw InvalidArgument(message(name, ": row ", t, " sums to ", sum,
                                    "; each row must sum to 1"));
    }
  }
  overrides_[static_cast<std::size_t>(head)] = Eigen::Map<const MatrixF>(weights.data(), L, L);
}

void MultiHeadAttention::clear_attention_override(int head) {
  check_head(head, "attention override: head");
  overrides_[static_cast<std::size_t>(head)].reset();
}

bool MultiHeadAttention::has_attention_override(int head) const {
  check_head(head, "attention override: head");
  return overrides_[static_cast<std::size_t>(head)].has_value();
}

ForwardTrace MultiHeadAttention::forward(const std::vector<float>& x,
                                         const ForwardOptions& options) const {
  ForwardTrace trace;
  ForwardScratch scratch;
  forward_into(x.data(), x.size(), options, trace, scratch);
  return trace;
}

namespace {

// Resizes only when the shape differs (Eigen's resize to the same size is already a no-op;
// this also keeps an empty matrix empty without touching the allocator).
void shape(MatrixF& m, Eigen::Index rows, Eigen::Index cols) {
  if (m.rows() != rows || m.cols() != cols) m.resize(rows, cols);
}

// Largest Euclidean norm over `count` rows of n contiguous entries, row r starting at
// data + r * ld; in double (a float square of 1e20 would overflow).
double max_row_norm(const float* data, int count, std::ptrdiff_t ld, int n) {
  double best = 0;
  for (int v = 0; v < count; ++v) {
    const float* p = data + v * ld;
    double sum = 0;
    for (int e = 0; e < n; ++e) sum += static_cast<double>(p[e]) * p[e];
    best = sum > best ? sum : best;
  }
  return std::sqrt(best);
}

// What every step of one forward pass reads: the shape, the options that change the work,
// the kernels, and the counts each product adds its multiply-adds to.
struct Pass {
  const KernelSet& kernels;
  OperationCounts& counts;
  int L, d, h, d_k;
  bool causal;
  bool keep;        // options.keep_attention: store every head's L x L scores and weights
  int query_block;  // query rows per block in step 2 (see attend_heads)
  float scale;      // 1 / sqrt(d_k)
};

// C[m x n] = A[m x k] B[k x n] with the pass's kernels, its m * n * k multiply-adds added
// to `counter`.
void count_gemm_nn(const Pass& pass, std::uint64_t& counter, int m, int n, int k, const float* a,
                   int lda, const float* b, int ldb, float* c, int ldc) {
  pass.kernels.gemm_nn(m, n, k, a, lda, b, ldb, c, ldc);
  counter += product_size(m, n, k);
}

// Refuses a pass over the work budget, and an X of the wrong size or with a non-finite
// entry, before any work. The checks build their messages (std::string) only when they
// fail: a call with valid arguments allocates nothing.
void check_forward_input(const AttentionConfig& config, const ForwardOptions& options,
                         const KernelSet& kernels, const float* x, std::size_t count) {
  const int L = config.seq_len, d = config.d_model;
  const std::uint64_t planned = forward_multiply_adds(config, options);
  if (planned > kMaxForwardMultiplyAdds) {
    require_within_budget(planned, kMaxForwardMultiplyAdds, "kMaxForwardMultiplyAdds", "forward pass");
  }
  const bool x_ok = count == static_cast<std::size_t>(L) * static_cast<std::size_t>(d) &&
                    kernels.all_finite(L, d, x, d);
  if (!x_ok) require_matrix(x, count, L, d, "X");  // names the first bad entry
}

// Step 1: project every token into queries, keys and values, for all heads at once.
// Q = X W_Q is L x d_model; its column block i is Q_i = X W_Q^i (L x d_k).
void project_tokens(const Pass& pass, const float* x, const MatrixF& w_q, const MatrixF& w_k,
                    const MatrixF& w_v, ForwardTrace& trace) {
  const int L = pass.L, d = pass.d;
  shape(trace.queries, L, d);
  shape(trace.keys, L, d);
  shape(trace.values, L, d);
  const std::pair<const MatrixF*, MatrixF*> projections[] = {
      {&w_q, &trace.queries}, {&w_k, &trace.keys}, {&w_v, &trace.values}};
  for (const auto& [weights, result] : projections) {
    count_gemm_nn(pass, pass.counts.projections, L, d, d, x, d, weights->data(), d, result->data(), d);
  }
  require_finite_result(pass.kernels, trace.queries, "the projection X W_Q");
  require_finite_result(pass.kernels, trace.keys, "the projection X W_K");
  require_finite_result(pass.kernels, trace.values, "the projection X W_V");
}

// One head of step 2, as the block steps 2a-2c see it.
struct HeadPass {
  int index;                               // i
  std::ptrdiff_t column;                   // i * d_k: head i's column block of Q, K, V, Concat
  const std::optional<MatrixF>& supplied;  // the caller's weights, if any (already validated)
  bool check_scores;                       // whether scores may overflow (see scores_may_overflow)
};

// One block of query rows t0 .. t0 + rows - 1 of one head. `scores` and `weights` point at
// its rows x L entries (row stride L): into the head's stored L x L matrices with
// keep_attention, otherwise both at the one reused block buffer.
struct QueryBlock {
  int t0, rows;
  float* scores;
  float* weights;
};

// Can a score of head i overflow? By Cauchy-Schwarz |q_t . k_s| <= |q_t| |k_s|, so if the
// largest query norm times the largest key norm (scaled) fits in float, no score can
// overflow and the per-entry check (L^2 per head) is skipped. Computed in double, over the
// rows of Q_i and K_i, where each vector's d_k entries are contiguous (the columns of K_i^T
// are L floats apart, one cache line per entry). The scaling of K_i^T by 1/sqrt(d_k) rounds
// each entry by at most half an ulp, far inside the bound's factor-2 margin.
bool scores_may_overflow(const Pass& pass, const ForwardTrace& trace, std::ptrdiff_t column) {
  const double score_bound = max_row_norm(trace.queries.data() + column, pass.L, pass.d, pass.d_k) *
                             max_row_norm(trace.keys.data() + column, pass.L, pass.d, pass.d_k) * pass.scale;
  return !(score_bound < 0.5 * std::numeric_limits<float>::max());
}

// 2a. scores_i = Q_i K_i^T / sqrt(d_k): entry (t, s) is how well token t's query matches
//     token s's key. rows x L entries, each d_k multiply-adds (K_i^T comes packed and
//     pre-scaled in keys_t).
void block_scores(const Pass& pass, const HeadPass& head, const QueryBlock& block,
                  const MatrixF& queries, const MatrixF& keys_t) {
  const int L = pass.L;
  count_gemm_nn(pass, pass.counts.scores, block.rows, L, pass.d_k,
                queries.data() + static_cast<std::ptrdiff_t>(block.t0) * pass.d + head.column, pass.d,
                keys_t.data(), L, block.scores, L);
  if (head.check_scores) {
    require_finite_result(pass.kernels, block.scores, block.rows, L, L, "the scores Q K^T / sqrt(d_k)",
                          head.index);
  }
  // The causal mask: token t must not see tokens after it. -infinity becomes weight 0.
  if (pass.causal) {
    Eigen::Map<MatrixF> scores_block(block.scores, block.rows, L);
    for (int r = 0; r < block.rows; ++r)
      for (int s = block.t0 + r + 1; s < L; ++s) scores_block(r, s) = kNegativeInfinity;
  }
}

// 2b. weights_i = softmax over each row (its numerators e here, the division in 2c), or
//     the caller's weights (already validated). Writes each row's 1 / sum into
//     inverse_sums (softmax only).
void block_weights(const Pass& pass, const HeadPass& head, const QueryBlock& block, float* inverse_sums) {
  const int L = pass.L, rows = block.rows;
  Eigen::Map<MatrixF> weights_block(block.weights, rows, L);
  if (head.supplied) {
    weights_block = head.supplied->middleRows(block.t0, rows);
    return;
  }
  if (pass.keep) weights_block = Eigen::Map<const MatrixF>(block.scores, rows, L);
  pass.kernels.softmax_numerators(rows, L, block.weights, L, inverse_sums);
  // sum >= 1 (the maximum contributes exp(0) = 1) unless the row is fully masked
  // (sum 0, all numerators 0): it attends to nothing, and its output stays 0.
  for (int r = 0; r < rows; ++r) inverse_sums[r] = inverse_sums[r] > 0 ? 1.0f / inverse_sums[r] : 0.0f;
  pass.counts.exponentials += static_cast<std::uint64_t>(rows) * L;
}

// 2c. head_i = weights_i V_i: each output row is a convex combination of the value rows,
//     i.e. one weighted average per token, written straight into head i's slice of the
//     concatenation: columns i*d_k .. (i+1)*d_k - 1, and nothing else. Then the softmax's
//     deferred division (see attend_heads): each output row, and with keep_attention each
//     stored weight row, times the row's 1 / sum.
void block_weighted_sum(const Pass& pass, const HeadPass& head, const QueryBlock& block,
                        ForwardTrace& trace, const float* inverse_sums) {
  const int L = pass.L, d = pass.d, d_k = pass.d_k;
  float* out = trace.concat.data() + static_cast<std::ptrdiff_t>(block.t0) * d + head.column;
  count_gemm_nn(pass, pass.counts.weighted_sum, block.rows, d_k, L, block.weights, L,
                trace.values.data() + head.column, d, out, d);
  if (head.supplied) return;
  for (int r = 0; r < block.rows; ++r) {
    const float inv = inverse_sums[r];
    float* row = out + static_cast<std::ptrdiff_t>(r) * d;
    for (int c = 0; c < d_k; ++c) row[c] *= inv;
    if (pass.keep) {
      float* w = block.weights + static_cast<std::ptrdiff_t>(r) * L;
      for (int c = 0; c < L; ++c) w[c] *= inv;
    }
  }
}

// Head i of step 2: pack K_i^T, then steps 2a-2c block by block of query rows, then
// (with head_outputs) a copy of head_i out of Concat.
void attend_head(const Pass& pass, int i, const std::optional<MatrixF>& supplied,
                 const ForwardOptions& options, ForwardTrace& trace, ForwardScratch& scratch) {
  const int L = pass.L, d_k = pass.d_k;
  HeadTrace& head_trace = trace.heads[static_cast<std::size_t>(i)];
  const std::ptrdiff_t column = static_cast<std::ptrdiff_t>(i) * d_k;
  head_trace.weights_overridden = supplied.has_value();
  // K_i^T, packed d_k x L and scaled by 1/sqrt(d_k) on the way.
  scratch.keys_t.noalias() = trace.keys.middleCols(column, d_k).transpose() * pass.scale;
  const HeadPass head{i, column, supplied, scores_may_overflow(pass, trace, column)};
  shape(head_trace.scores, pass.keep ? L : 0, pass.keep ? L : 0);
  shape(head_trace.weights, pass.keep ? L : 0, pass.keep ? L : 0);
  float* inverse_sums = scratch.row_sums.data();
  for (int t0 = 0; t0 < L; t0 += pass.query_block) {
    QueryBlock block{t0, std::min(pass.query_block, L - t0), nullptr, nullptr};
    block.scores = pass.keep ? head_trace.scores.data() + static_cast<std::ptrdiff_t>(t0) * L
                             : scratch.block_scores.data();
    block.weights = pass.keep ? head_trace.weights.data() + static_cast<std::ptrdiff_t>(t0) * L : block.scores;
    block_scores(pass, head, block, trace.queries, scratch.keys_t);
    block_weights(pass, head, block, inverse_sums);
    block_weighted_sum(pass, head, block, trace, inverse_sums);
  }
  require_finite_result(pass.kernels, trace.concat.data() + column, L, d_k, pass.d,
                        "the weighted sum of values", i);
  if (options.head_outputs) {
    shape(head_trace.output, L, d_k);
    head_trace.output = trace.concat.middleCols(column, d_k);
  } else {
    shape(head_trace.output, 0, 0);
  }
}

// Step 2: each head attends on its own. Dividing the scores by sqrt(d_k) keeps their
// spread independent of the head width (a dot product of d_k unit-variance terms has
// variance d_k), so narrow and wide heads get equally peaked softmaxes.
//
// The work is organised so that a narrow head costs no more per multiply-add than a wide
// one (the lesson's claim, h L^2 d_k = L^2 d_model, should hold in time too):
//  * K_i^T is packed once per head (d_k x L, scaled by 1/sqrt(d_k) on the way), so the
//    score product's inner loop runs along L contiguous keys whatever d_k is. A
//    dot-product formulation would loop along d_k, which is short for narrow heads and
//    ends each entry with a horizontal sum.
//  * Query rows go in blocks: one block's scores (rows x L floats, at most 2^17 floats =
//    512 KiB, half of this machine's per-core L2) stay in cache from the product,
//    through the softmax, into the weighted sum. Taller blocks repack K_i^T and V_i
//    (the kernel packs B per call) fewer times: blocks of 256 rows instead of 32 made the
//    pass 1.5-3.5% faster at L = 256 and 512 (41 interleaved rounds per size).
//  * Without keep_attention, no L x L matrix per head is ever stored: one block buffer
//    is reused by every head, so memory traffic does not grow with h.
//  * The softmax's division by each row's sum is deferred past the weighted sum:
//    softmax(s) V = (e V) / sum(e) with e = exp(s - max), so the division touches the d_k
//    outputs of a row instead of its L weights (with keep_attention the stored weights
//    are still divided, by the same reciprocal, so both paths give identical numbers).
void attend_heads(const Pass& pass, const std::vector<std::optional<MatrixF>>& overrides,
                  const ForwardOptions& options, ForwardTrace& trace, ForwardScratch& scratch) {
  const int L = pass.L, h = pass.h;
  shape(trace.concat, L, pass.d);
  if (trace.heads.size() != static_cast<std::size_t>(h)) trace.heads.resize(static_cast<std::size_t>(h));
  shape(scratch.keys_t, pass.d_k, L);
  shape(scratch.block_scores, pass.keep ? 0 : std::min(L, pass.query_block), pass.keep ? 0 : L);
  if (scratch.row_sums.size() < static_cast<std::size_t>(pass.query_block)) {
    scratch.row_sums.resize(pass.query_block);
  }
  for (int i = 0; i < h; ++i) {
    attend_head(pass, i, overrides[static_cast<std::size_t>(i)], options, trace, scratch);
  }
}

// Step 3: Output = Concat W_O. Unlike the concatenation, W_O can write any head into any
// output direction.
void project_output(const Pass& pass, const MatrixF& w_o, ForwardTrace& trace) {
  const int L = pass.L, d = pass.d;
  shape(trace.output, L, d);
  count_gemm_nn(pass, pass.counts.output, L, d, d, trace.concat.data(), d, w_o.data(), d,
                trace.output.data(), d);
  require_finite_result(pass.kernels, trace.output, "the output Concat W_O");
}

// Step 4 (for the lesson, not part of the model): split the output by head. Row block i
// of W_O (rows i*d_k ..) is W_O^i, the only part of W_O that head i's slice meets, so
// Output = sum_i head_i W_O^i. Not added to the counts: it re-does step 3 in pieces.
void split_output_by_head(const Pass& pass, const MatrixF& w_o, bool per_head_contributions,
                          ForwardTrace& trace) {
  const int L = pass.L, d = pass.d, d_k = pass.d_k;
  for (int i = 0; i < pass.h; ++i) {
    HeadTrace& head = trace.heads[static_cast<std::size_t>(i)];
    if (!per_head_contributions) {
      shape(head.contribution, 0, 0);
      continue;
    }
    shape(head.contribution, L, d);
    pass.kernels.gemm_nn(L, d, d_k, trace.concat.data() + static_cast<std::ptrdiff_t>(i) * d_k, d,
                         w_o.data() + static_cast<std::ptrdiff_t>(i) * d_k * d, d,
                         head.contribution.data(), d);
  }
}

}  // namespace

void MultiHeadAttention::forward_into(const float* x, std::size_t count, const ForwardOptions& options,
                                      ForwardTrace& trace, ForwardScratch& scratch) const {
  const KernelSet& kernels = active_kernels();
  check_forward_input(config_, options, kernels, x, count);
  trace.counts = OperationCounts{};
  const int L = config_.seq_len, d_k = config_.d_k();
  const Pass pass{kernels, trace.counts, L, config_.d_model, config_.num_heads, d_k, config_.causal,
                  options.keep_attention,
                  // 2^17 floats of scores per block, between 32 and 256 rows (see attend_heads)
                  std::max(32, std::min(256, (1 << 17) / L)),
                  1.0f / std::sqrt(static_cast<float>(d_k))};
  // Step 1: Q = X W_Q, K = X W_K, V = X W_V, for all heads at once.
  project_tokens(pass, x, w_q_, w_k_, w_v_, trace);
  // Step 2: head_i = softmax(Q_i K_i^T / sqrt(d_k)) V_i, into Concat's column block i.
  attend_heads(pass, overrides_, options, trace, scratch);
  // Step 3: Output = Concat W_O.
  project_output(pass, w_o_, trace);
  // Step 4 (for the lesson): the output split by head, head_i W_O^i.
  split_output_by_head(pass, w_o_, options.per_head_contributions, trace);
}

std::vector<float> renormalize_rows(const std::vector<float>& weights, int rows, int cols) {
  require_matrix(weights, rows, cols, "weights to renormalize");
  std::vector<float> result(weights);
  for (int r = 0; r < rows; ++r) {
    float* row = result.data() + static_cast<std::size_t>(r) * cols;
    double sum = 0;
    for (int c = 0; c < cols; ++c) {
      if (row[c] < 0) {
        throw InvalidArgument(message("weights to renormalize: entry (", r, ", ", c, ") is ",
                                      row[c], "; weights must be non-negative"));
      }
      sum += row[c];
    }
    if (!(sum > 0) || !std::isfinite(sum)) {
      throw InvalidArgument(message("weights to renormalize: row ", r, " sums to ", sum,
                                    "; it needs a positive, finite sum"));
    }
    for (int c = 0; c < cols; ++c) row[c] = static_cast<float>(row[c] / sum);
  }
  return result;
}

}  // namespace mha
