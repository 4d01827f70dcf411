// The backward pass of multi-head self-attention, a tiny attention-only transformer around
// it, Adam, the synthetic tasks and the trainer. See training.hpp for the model.
//
// Matrix products go through gemm() below: for float the active kernel set (the SIMD128
// gemm_nn in the SIMD build), for double the double-precision reference kernel. The
// kernels only compute C = A B, so a product with a transposed factor packs the transpose
// first (an O(rows x cols) copy next to the O(m n k) product), as the forward pass of
// attention.cpp does with K_i^T.
#include "mha/training.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mha/errors.hpp"
#include "mha/kernels.hpp"
#include "mha/matrix.hpp"
#include "mha/lesson_math.hpp"
#include "mha/limits.hpp"
#include "mha/message.hpp"
#include "mha/validation.hpp"

namespace mha {
namespace {

template <typename T>
struct Ops;

template <>
struct Ops<float> {
  static void gemm(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c,
                   int ldc) {
    active_kernels().gemm_nn(m, n, k, a, lda, b, ldb, c, ldc);
  }
  static void softmax(int rows, int cols, float* x, int ld) {
    active_kernels().softmax_rows(rows, cols, x, ld);
  }
};

template <>
struct Ops<double> {
  static void gemm(int m, int n, int k, const double* a, int lda, const double* b, int ldb,
                   double* c, int ldc) {
    gemm_nn_f64_reference(m, n, k, a, lda, b, ldb, c, ldc);
  }
  static void softmax(int rows, int cols, double* x, int ld) {
    softmax_rows_f64_reference(rows, cols, x, ld);
  }
};

template <typename T>
using Strided = Eigen::Map<const MatrixT<T>, 0, Eigen::OuterStride<>>;

// A rows x cols block starting at p with row stride ld.
template <typename T>
Strided<T> block(const T* p, int rows, int cols, int ld) {
  return Strided<T>(p, rows, cols, Eigen::OuterStride<>(ld));
}

inline std::ptrdiff_t off(int row, int ld) {
  return static_cast<std::ptrdiff_t>(row) * static_cast<std::ptrdiff_t>(ld);
}

std::uint32_t xorshift(std::uint32_t& state) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

// A non-zero xorshift32 state derived from a seed and a stream number (splitmix-style mix),
// so that weights, batches and the evaluation set use independent streams.
std::uint32_t stream_state(std::uint32_t seed, std::uint32_t stream) {
  std::uint32_t z = seed * 0x9E3779B9u + stream * 0x85EBCA6Bu + 0x632BE5ABu;
  z ^= z >> 16;
  z *= 0x7FEB352Du;
  z ^= z >> 15;
  z *= 0x846CA68Bu;
  z ^= z >> 16;
  return z != 0 ? z : 0x9E3779B9u;
}

template <typename T>
MatrixT<T> seeded(int rows, int cols, std::uint32_t seed, float scale) {
  const std::vector<float> v = seeded_matrix(rows, cols, seed, scale);
  return Eigen::Map<const MatrixF>(v.data(), rows, cols).cast<T>();
}

}  // namespace

// =======================================================================================
// AttentionLayerT
// =======================================================================================

template <typename T>
AttentionLayerT<T>::AttentionLayerT(int d_model, int num_heads, bool causal)
    : d_model_(d_model), num_heads_(num_heads), causal_(causal) {
  require_in_range(d_model, 1, 4096, "d_model");
  require_in_range(num_heads, 1, d_model, "num_heads (h)");
  if (d_model % num_heads != 0) {
    throw InvalidArgument(message("num_heads (h): must divide d_model = ", d_model,
                                  " so that every head has the same width, got h = ", num_heads));
  }
  w_qkv = MatrixT<T>::Zero(d_model, 3 * d_model);
  w_o = MatrixT<T>::Zero(d_model, d_model);
  gates.assign(static_cast<std::size_t>(num_heads), T(1));
  grad_w_qkv = MatrixT<T>::Zero(d_model, 3 * d_model);
  grad_w_o = MatrixT<T>::Zero(d_model, d_model);
  grad_gates.assign(static_cast<std::size_t>(num_heads), T(0));
}

template <typename T>
const T* AttentionLayerT<T>::weights(int b, int head) const {
  return probs_.data() + off((b * num_heads_ + head) * seq_len_, seq_len_);
}

// Forward, for each sequence b and head i (Q_i, K_i, V_i are column blocks of QKV):
//   S   = Q_i K_i^T / sqrt(d_k)        (L x L; with the causal mask, S[t][s] = -inf, s > t)
//   P   = softmax over each row of S
//   H_i = P V_i                        (head i's output, L x d_k)
//   Concat_i = g_i H_i,   y = Concat W_O
template <typename T>
void AttentionLayerT<T>::forward(const MatrixT<T>& x, int batch, int seq_len, MatrixT<T>& y) {
  const int d = d_model_, h = num_heads_, dk = d_k(), L = seq_len, N = batch * seq_len;
  batch_ = batch;
  seq_len_ = seq_len;
  x_ = x;
  // Q, K and V for every head at once: QKV = x [W_Q | W_K | W_V], N x 3d.
  qkv_.resize(N, 3 * d);
  Ops<T>::gemm(N, 3 * d, d, x.data(), d, w_qkv.data(), 3 * d, qkv_.data(), 3 * d);

  heads_.resize(N, d);
  probs_.resize(static_cast<Eigen::Index>(batch) * h * L, L);
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  const T neg_inf = -std::numeric_limits<T>::infinity();
  MatrixT<T>& keys_t = scratch_a_;
  keys_t.resize(dk, L);
  for (int b = 0; b < batch; ++b) {
    const T* q_rows = qkv_.data() + off(b * L, 3 * d);
    for (int i = 0; i < h; ++i) {
      const T* q = q_rows + i * dk;
      const T* k = q_rows + d + i * dk;
      const T* v = q_rows + 2 * d + i * dk;
      T* p = probs_.data() + off((b * h + i) * L, L);
      // K_i^T, pre-scaled by 1 / sqrt(d_k), packed d_k x L for gemm_nn.
      keys_t = block(k, L, dk, 3 * d).transpose() * scale;
      Ops<T>::gemm(L, L, dk, q, 3 * d, keys_t.data(), L, p, L);
      if (causal_) {
        for (int t = 0; t < L; ++t)
          for (int s = t + 1; s < L; ++s) p[off(t, L) + s] = neg_inf;
      }
      Ops<T>::softmax(L, L, p, L);
      Ops<T>::gemm(L, dk, L, p, L, v, 3 * d, heads_.data() + off(b * L, d) + i * dk, d);
    }
  }
  concat_ = heads_;
  for (int i = 0; i < h; ++i) {
    if (gates[static_cast<std::size_t>(i)] != T(1))
      concat_.middleCols(i * dk, dk) *= gates[static_cast<std::size_t>(i)];
  }
  y.resize(N, d);
  Ops<T>::gemm(N, d, d, concat_.data(), d, w_o.data(), d, y.data(), d);
}

// Backward. Given dy = dL/dy (N x d), in reverse order of the forward pass:
//
// 1. y = Concat W_O, so  dL/dW_O = Concat^T dy   and   dL/dConcat = dy W_O^T.
// 2. Concat_i = g_i H_i, so  dL/dg_i = sum of H_i (.) dConcat_i (entry-wise product, summed
//    over the block), and  dL/dH_i = g_i dConcat_i. A head that is switched off (g_i = 0)
//    receives no gradient, but its gate still does: that is the importance score.
// 3. For each sequence and head, H_i = P V_i, so
//      dL/dP   = dH_i V_i^T    (L x L)     and   dL/dV_i = P^T dH_i   (L x d_k).
// 4. Softmax, row by row: P[t][s] = exp(S[t][s]) / sum_r exp(S[t][r]). Its Jacobian is
//    dP[t][s] / dS[t][r] = P[t][s] ([s == r] - P[t][r]), so
//      dS[t][r] = sum_s dP[t][s] P[t][s] ([s == r] - P[t][r])
//               = P[t][r] (dP[t][r] - sum_s P[t][s] dP[t][s]).
//    A masked entry has P = 0, hence dS = 0: the mask needs no special case.
// 5. S = Q_i K_i^T / sqrt(d_k), so with dS' = dS / sqrt(d_k):
//      dL/dQ_i = dS' K_i      and      dL/dK_i = dS'^T Q_i.
// 6. QKV = x [W_Q | W_K | W_V], so with dQKV = [dQ | dK | dV] (all heads' blocks):
//      dL/d[W_Q | W_K | W_V] = x^T dQKV    and    dL/dx = dQKV [W_Q | W_K | W_V]^T.
template <typename T>
void AttentionLayerT<T>::backward(const MatrixT<T>& dy, MatrixT<T>& dx) {
  const int d = d_model_, h = num_heads_, dk = d_k(), L = seq_len_, N = batch_ * seq_len_;
  // 1. dW_O = Concat^T dy; dConcat = dy W_O^T.
  MatrixT<T>& t_buf = scratch_a_;
  t_buf = concat_.transpose();
  grad_w_o.resize(d, d);
  Ops<T>::gemm(d, d, N, t_buf.data(), N, dy.data(), d, grad_w_o.data(), d);
  t_buf = w_o.transpose();
  d_concat_.resize(N, d);
  Ops<T>::gemm(N, d, d, dy.data(), d, t_buf.data(), d, d_concat_.data(), d);

  // 2. Gates: dL/dg_i per sequence and in total; then dH_i = g_i dConcat_i (in place).
  grad_gates_per_sequence.resize(batch_, h);
  for (int b = 0; b < batch_; ++b) {
    for (int i = 0; i < h; ++i) {
      grad_gates_per_sequence(b, i) =
          (heads_.block(b * L, i * dk, L, dk).array() * d_concat_.block(b * L, i * dk, L, dk).array()).sum();
    }
  }
  for (int i = 0; i < h; ++i) {
    grad_gates[static_cast<std::size_t>(i)] = grad_gates_per_sequence.col(i).sum();
    const T g = gates[static_cast<std::size_t>(i)];
    if (g != T(1)) d_concat_.middleCols(i * dk, dk) *= g;
  }

  // 3-5, per sequence and head. d_qkv_ receives dQ_i, dK_i, dV_i in the same column blocks
  // as Q_i, K_i, V_i in qkv_.
  d_qkv_.resize(N, 3 * d);
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  MatrixT<T>& packed = scratch_b_;  // V_i^T, P^T or dS^T
  MatrixT<T>& d_p = scratch_c_;     // dP, then dS in place
  d_p.resize(L, L);
  for (int b = 0; b < batch_; ++b) {
    const T* rows = qkv_.data() + off(b * L, 3 * d);
    T* d_rows = d_qkv_.data() + off(b * L, 3 * d);
    for (int i = 0; i < h; ++i) {
      const T* q = rows + i * dk;
      const T* k = rows + d + i * dk;
      const T* v = rows + 2 * d + i * dk;
      const T* d_h = d_concat_.data() + off(b * L, d) + i * dk;
      const T* p = probs_.data() + off((b * h + i) * L, L);
      const auto P = block(p, L, L, L);
      // 3. dP = dH_i V_i^T;  dV_i = P^T dH_i.
      packed = block(v, L, dk, 3 * d).transpose();
      Ops<T>::gemm(L, L, dk, d_h, d, packed.data(), L, d_p.data(), L);
      packed = P.transpose();
      Ops<T>::gemm(L, dk, L, packed.data(), L, d_h, d, d_rows + 2 * d + i * dk, 3 * d);
      // 4. dS = P (.) (dP - rowsum(P (.) dP)), with 1 / sqrt(d_k) folded in (step 5).
      for (int t = 0; t < L; ++t) {
        const T* pt = p + off(t, L);
        T* dpt = d_p.data() + off(t, L);
        T dot = 0;
        for (int s = 0; s < L; ++s) dot += pt[s] * dpt[s];
        for (int s = 0; s < L; ++s) dpt[s] = pt[s] * (dpt[s] - dot) * scale;
      }
      // 5. dQ_i = dS' K_i;  dK_i = dS'^T Q_i.
      Ops<T>::gemm(L, dk, L, d_p.data(), L, k, 3 * d, d_rows + i * dk, 3 * d);
      packed = d_p.transpose();
      Ops<T>::gemm(L, dk, L, packed.data(), L, q, 3 * d, d_rows + d + i * dk, 3 * d);
    }
  }

  // 6. dW_QKV = x^T dQKV;  dx = dQKV W_QKV^T.
  t_buf = x_.transpose();
  grad_w_qkv.resize(d, 3 * d);
  Ops<T>::gemm(d, 3 * d, N, t_buf.data(), N, d_qkv_.data(), 3 * d, grad_w_qkv.data(), 3 * d);
  t_buf = w_qkv.transpose();
  dx.resize(N, d);
  Ops<T>::gemm(N, d, 3 * d, d_qkv_.data(), 3 * d, t_buf.data(), d, dx.data(), d);
}

template class AttentionLayerT<float>;
template class AttentionLayerT<double>;

// =======================================================================================
// Tasks
// =======================================================================================

const char* task_name(Task task) {
  switch (task) {
    case Task::PreviousToken: return "previous-token";
    case Task::BackAndFirst: return "back-and-first";
  }
  return "?";
}

int task_outputs(Task task) { return task == Task::BackAndFirst ? 2 : 1; }

TaskBatch make_task_batch(Task task, int vocab, int seq_len, int offset, int count,
                          std::uint32_t& state) {
  TaskBatch batch;
  batch.count = count;
  batch.seq_len = seq_len;
  const std::size_t size = static_cast<std::size_t>(count) * static_cast<std::size_t>(seq_len);
  batch.tokens.resize(size);
  batch.labels.assign(size, -1);
  for (int b = 0; b < count; ++b) {
    int* tok = batch.tokens.data() + off(b, seq_len);
    int* lab = batch.labels.data() + off(b, seq_len);
    for (int t = 0; t < seq_len; ++t) {
      tok[t] = static_cast<int>(xorshift(state) % static_cast<std::uint32_t>(vocab));
    }
    for (int t = 0; t < seq_len; ++t) {
      if (task == Task::PreviousToken) {
        if (t >= 1) lab[t] = tok[t - 1];
      } else if (t >= offset + 1) {
        lab[t] = tok[t - offset] * vocab + tok[0];
      }
    }
  }
  return batch;
}

// =======================================================================================
// TinyTransformerT
// =======================================================================================

namespace {

void validate(const ModelConfig& c) {
  require_in_range(c.vocab, 2, 64, "vocab");
  require_in_range(c.outputs, 1, 2, "outputs");
  require_in_range(c.seq_len, 2, 64, "seq_len (L)");
  require_in_range(c.d_model, 1, 256, "d_model");
  require_in_range(c.num_heads, 1, c.d_model, "num_heads (h)");
  if (c.d_model % c.num_heads != 0) {
    throw InvalidArgument(message("num_heads (h): must divide d_model = ", c.d_model,
                                  " so that every head has the same width, got h = ", c.num_heads));
  }
  require_in_range(c.num_layers, 1, 4, "num_layers");
}

}  // namespace

// Initial weights, each from its own seeded stream (uniform, so variance = scale^2 / 3):
//   embeddings:   +/- 1          (entries of variance 1/3; x_0 has variance 2/3 per entry)
//   W_QKV:        +/- sqrt(3 / d) (unit variance after projecting unit-variance inputs)
//   W_O:          +/- sqrt(3 / d) * 0.5   (each layer starts as a modest update of x)
//   W_U:          +/- sqrt(3 / d), b_U = 0
template <typename T>
TinyTransformerT<T>::TinyTransformerT(const ModelConfig& config, std::uint32_t seed)
    : config_(config) {
  validate(config);
  const int d = config.d_model, V = config.vocab, L = config.seq_len, C = config.outputs * config.vocab;
  const float a = std::sqrt(3.0f / static_cast<float>(d));
  token_embedding_ = seeded<T>(V, d, stream_state(seed, 1), 1.0f);
  position_embedding_ = seeded<T>(L, d, stream_state(seed, 2), 1.0f);
  readout_w_ = seeded<T>(d, C, stream_state(seed, 3), a);
  readout_b_ = MatrixT<T>::Zero(1, C);
  for (int l = 0; l < config.num_layers; ++l) {
    AttentionLayerT<T> layer(d, config.num_heads, config.causal);
    layer.w_qkv = seeded<T>(d, 3 * d, stream_state(seed, 10 + 2 * l), a);
    layer.w_o = seeded<T>(d, d, stream_state(seed, 11 + 2 * l), 0.5f * a);
    layers_.push_back(std::move(layer));
  }
  grad_token_embedding_ = MatrixT<T>::Zero(V, d);
  grad_position_embedding_ = MatrixT<T>::Zero(L, d);
  grad_readout_w_ = MatrixT<T>::Zero(d, C);
  grad_readout_b_ = MatrixT<T>::Zero(1, C);
}

template <typename T>
std::vector<typename TinyTransformerT<T>::ParameterRef> TinyTransformerT<T>::parameters() {
  std::vector<ParameterRef> list;
  list.push_back({"token embedding", &token_embedding_, &grad_token_embedding_});
  list.push_back({"position embedding", &position_embedding_, &grad_position_embedding_});
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    list.push_back({message("layer ", l, " W_QKV"), &layers_[l].w_qkv, &layers_[l].grad_w_qkv});
    list.push_back({message("layer ", l, " W_O"), &layers_[l].w_o, &layers_[l].grad_w_o});
  }
  list.push_back({"read-out W_U", &readout_w_, &grad_readout_w_});
  list.push_back({"read-out b_U", &readout_b_, &grad_readout_b_});
  return list;
}

template <typename T>
LossResult TinyTransformerT<T>::run(const TaskBatch& batch, bool backward, bool per_sequence_loss) {
  const int d = config_.d_model, L = config_.seq_len, V = config_.vocab, G = config_.outputs;
  const int C = G * V;  // read-out width: output g owns columns g V .. g V + V - 1
  if (batch.seq_len != L) {
    throw InvalidArgument(message("batch: sequences of ", batch.seq_len,
                                  " tokens, but the model takes seq_len = ", L));
  }
  const int B = batch.count, N = B * L;
  const std::size_t layers = layers_.size();
  int label_limit = 1;
  for (int g = 0; g < G; ++g) label_limit *= V;

  // Embedding: x_0[b L + t] = E[token] + P[t].
  residual_.resize(layers + 1);
  MatrixT<T>& x0 = residual_[0];
  x0.resize(N, d);
  for (int r = 0; r < N; ++r) {
    const int token = batch.tokens[static_cast<std::size_t>(r)];
    if (token < 0 || token >= V) {
      throw InvalidArgument(message("batch: token ", token, " at position ", r % L,
                                    " of sequence ", r / L, " is outside 0 .. ", V - 1));
    }
    x0.row(r) = token_embedding_.row(token) + position_embedding_.row(r % L);
  }
  // Attention layers with residuals: x_{l+1} = x_l + MHA_l(x_l).
  for (std::size_t l = 0; l < layers; ++l) {
    layers_[l].forward(residual_[l], B, L, layer_out_);
    residual_[l + 1] = residual_[l] + layer_out_;
  }
  // Read-out: logits = x_L W_U + b_U (N x G V).
  const MatrixT<T>& top = residual_[layers];
  logits_.resize(N, C);
  Ops<T>::gemm(N, C, d, top.data(), d, readout_w_.data(), C, logits_.data(), C);
  logits_.rowwise() += readout_b_.row(0);
  // Overflow anywhere upstream (inf, then NaN) reaches the logits. The SIMD softmax would
  // turn NaN into weight 0 and hide it, so it is caught here.
  if (!logits_.allFinite()) {
    throw InvalidArgument("the logits are not finite numbers: the weights have overflowed the "
                          "float32 range");
  }

  // Digits of each label: target(r, g) is the token output g must predict (-1: not scored).
  std::vector<int> target(static_cast<std::size_t>(N) * G, -1);
  std::vector<int> scored_in(static_cast<std::size_t>(B), 0);
  int scored = 0;
  for (int r = 0; r < N; ++r) {
    int label = batch.labels[static_cast<std::size_t>(r)];
    if (label < 0) continue;
    if (label >= label_limit) {
      throw InvalidArgument(message("batch: label ", label, " at position ", r % L, " of sequence ",
                                    r / L, " is outside 0 .. ", label_limit - 1));
    }
    for (int g = G - 1; g >= 0; --g, label /= V) target[static_cast<std::size_t>(r) * G + g] = label % V;
    ++scored;
    ++scored_in[static_cast<std::size_t>(r / L)];
  }
  if (scored == 0) throw InvalidArgument("batch: no position has a label");

  // Cross-entropy of each output. For its logits z with maximum m and softmax p:
  //   -log p_y = log sum_c exp(z_c - m) - (z_y - m) = -log p_argmax + (m - z_y),
  // because p_argmax = exp(0) / sum_c exp(z_c - m). Both terms stay finite even when p_y
  // underflows. logits_ becomes the softmaxes in place (the gradient needs them).
  predictions_.assign(static_cast<std::size_t>(N), 0);
  std::vector<int> arg(static_cast<std::size_t>(N) * G);
  std::vector<T> row_max(static_cast<std::size_t>(N) * G), z_label(static_cast<std::size_t>(N) * G, T(0));
  for (int r = 0; r < N; ++r) {
    for (int g = 0; g < G; ++g) {
      const std::size_t rg = static_cast<std::size_t>(r) * G + g;
      Eigen::Index a;
      row_max[rg] = logits_.row(r).segment(g * V, V).maxCoeff(&a);
      arg[rg] = static_cast<int>(a);
      predictions_[static_cast<std::size_t>(r)] = predictions_[static_cast<std::size_t>(r)] * V + arg[rg];
      if (target[rg] >= 0) z_label[rg] = logits_(r, g * V + target[rg]);
    }
  }
  for (int g = 0; g < G; ++g) Ops<T>::softmax(N, V, logits_.data() + g * V, C);
  double total = 0;
  int correct = 0;
  std::vector<int> correct_output(static_cast<std::size_t>(G), 0);
  for (int r = 0; r < N; ++r) {
    if (batch.labels[static_cast<std::size_t>(r)] < 0) continue;
    bool all = true;
    for (int g = 0; g < G; ++g) {
      const std::size_t rg = static_cast<std::size_t>(r) * G + g;
      const T p_max = logits_(r, g * V + arg[rg]);
      total += -std::log(static_cast<double>(p_max)) + static_cast<double>(row_max[rg] - z_label[rg]);
      const bool right = arg[rg] == target[rg];
      correct_output[static_cast<std::size_t>(g)] += right ? 1 : 0;
      all = all && right;
    }
    correct += all ? 1 : 0;
  }
  LossResult result;
  result.loss = total / scored;
  result.accuracy = static_cast<double>(correct) / scored;
  result.scored = scored;
  for (int g = 0; g < G; ++g) result.output_accuracy.push_back(static_cast<double>(correct_output[static_cast<std::size_t>(g)]) / scored);
  if (!backward) return result;

  // d loss / d logits = (p - onehot(target)) / n in each output's block, for scored rows
  // (n = scored positions, or the sequence's own count with per_sequence_loss); 0 for the
  // others.
  for (int r = 0; r < N; ++r) {
    if (batch.labels[static_cast<std::size_t>(r)] < 0) {
      logits_.row(r).setZero();
      continue;
    }
    const T n = static_cast<T>(per_sequence_loss ? scored_in[static_cast<std::size_t>(r / L)] : scored);
    for (int g = 0; g < G; ++g) logits_(r, g * V + target[static_cast<std::size_t>(r) * G + g]) -= T(1);
    logits_.row(r) /= n;
  }
  const MatrixT<T>& d_logits = logits_;
  // logits = x_L W_U + b_U:  dW_U = x_L^T dlogits, db_U = column sums, dx_L = dlogits W_U^T.
  scratch_ = top.transpose();
  Ops<T>::gemm(d, C, N, scratch_.data(), N, d_logits.data(), C, grad_readout_w_.data(), C);
  grad_readout_b_ = d_logits.colwise().sum();
  scratch_ = readout_w_.transpose();
  d_x_.resize(N, d);
  Ops<T>::gemm(N, d, C, d_logits.data(), C, scratch_.data(), d, d_x_.data(), d);
  // x_{l+1} = x_l + MHA_l(x_l):  dx_l = dx_{l+1} + (dMHA_l/dx_l)^T dx_{l+1}.
  for (std::size_t l = layers; l-- > 0;) {
    layers_[l].backward(d_x_, d_layer_);
    d_x_ += d_layer_;
  }
  // x_0 = E[token] + P[t]: each row's gradient goes to its token's and its position's row.
  grad_token_embedding_.setZero();
  grad_position_embedding_.setZero();
  for (int r = 0; r < N; ++r) {
    grad_token_embedding_.row(batch.tokens[static_cast<std::size_t>(r)]) += d_x_.row(r);
    grad_position_embedding_.row(r % L) += d_x_.row(r);
  }
  return result;
}

template class TinyTransformerT<float>;
template class TinyTransformerT<double>;

// =======================================================================================
// Adam
// =======================================================================================

template <typename T>
AdamT<T>::AdamT(double learning_rate, double beta1, double beta2, double epsilon)
    : lr_(learning_rate), beta1_(beta1), beta2_(beta2), eps_(epsilon) {}

// m <- b1 m + (1 - b1) g;  v <- b2 v + (1 - b2) g^2;
// w <- w - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps).
template <typename T>
void AdamT<T>::step(const std::vector<typename TinyTransformerT<T>::ParameterRef>& parameters) {
  if (m_.empty()) {
    for (const auto& p : parameters) {
      m_.push_back(MatrixT<T>::Zero(p.value->rows(), p.value->cols()));
      v_.push_back(MatrixT<T>::Zero(p.value->rows(), p.value->cols()));
    }
  }
  ++t_;
  const T b1 = static_cast<T>(beta1_), b2 = static_cast<T>(beta2_);
  const T c1 = static_cast<T>(1.0 / (1.0 - std::pow(beta1_, t_)));
  const T c2 = static_cast<T>(1.0 / (1.0 - std::pow(beta2_, t_)));
  const T lr = static_cast<T>(lr_), eps = static_cast<T>(eps_);
  for (std::size_t j = 0; j < parameters.size(); ++j) {
    auto g = parameters[j].grad->array();
    m_[j].array() = b1 * m_[j].array() + (T(1) - b1) * g;
    v_[j].array() = b2 * v_[j].array() + (T(1) - b2) * g * g;
    parameters[j].value->array() -= lr * (m_[j].array() * c1) / ((v_[j].array() * c2).sqrt() + eps);
  }
}

template class AdamT<float>;
template class AdamT<double>;

// =======================================================================================
// Trainer
// =======================================================================================

TrainingConfig default_training_config(Task task) {
  TrainingConfig c;
  c.task = task;
  if (task == Task::PreviousToken) {
    c.num_heads = 4;
    c.steps = 400;
  }
  return c;
}

namespace {

ModelConfig model_config(const TrainingConfig& c) {
  require_in_range(c.vocab, 2, c.task == Task::BackAndFirst ? 16 : 64, "vocab");
  require_in_range(c.seq_len, 2, 64, "seq_len (L)");
  if (c.task == Task::BackAndFirst) {
    require_in_range(c.offset, 1, c.seq_len - 2, "offset (k)");
  }
  require_in_range(c.batch_size, 1, 1024, "batch_size");
  require_in_range(c.eval_size, 1, 4096, "eval_size");
  require_in_range(c.steps, 1, 100000, "steps");
  if (!(c.learning_rate > 0.0f && c.learning_rate <= 1.0f)) {
    throw InvalidArgument(message("learning_rate: must be in (0, 1], got ", c.learning_rate));
  }
  ModelConfig m;
  m.vocab = c.vocab;
  m.outputs = task_outputs(c.task);
  m.seq_len = c.seq_len;
  m.d_model = c.d_model;
  m.num_heads = c.num_heads;
  m.num_layers = c.num_layers;
  m.causal = c.causal;
  return m;
}

}  // namespace

Trainer::Trainer(const TrainingConfig& config, std::uint32_t seed)
    : config_(config),
      model_(model_config(config), seed),
      adam_(config.learning_rate),
      data_state_(stream_state(seed, 100)) {
  // Every later call must fit the work budget: one step, and importance(), the largest
  // evaluation (the evaluation set with gradients, then once more per head switched off).
  require_within_budget(training_multiply_adds(config_, config_.batch_size, true), kMaxTrainingMultiplyAdds,
                        "kMaxTrainingMultiplyAdds", "one training step (batch_size sequences)");
  const std::uint64_t evaluations = static_cast<std::uint64_t>(config_.num_layers) * config_.num_heads + 3;
  require_within_budget(training_multiply_adds(config_, evaluations * config_.eval_size, false),
                        kMaxTrainingMultiplyAdds, "kMaxTrainingMultiplyAdds",
                        "head importance (eval_size sequences, once per head and with gradients)");
  std::uint32_t eval_state = stream_state(seed, 101);
  eval_set_ = make_task_batch(config.task, config.vocab, config.seq_len, config.offset,
                              config.eval_size, eval_state);
}

// The multiply-adds of running `sequences` sequences through the model, forward and (when
// `backward`) backward, counted as the model does them per layer: the Q, K, V and output
// projections (4 L d^2), the scores and the weighted sum (2 L^2 d), then the read-out (L d C).
// The backward pass is counted as twice the forward one (a gradient for each operand).
std::uint64_t training_multiply_adds(const TrainingConfig& c, std::uint64_t sequences, bool backward) {
  const std::uint64_t L = c.seq_len, d = c.d_model;
  const std::uint64_t outputs = c.task == Task::BackAndFirst ? 2 : 1;
  const std::uint64_t per_layer = 4 * L * d * d + 2 * L * L * d;
  const std::uint64_t forward = c.num_layers * per_layer + L * d * outputs * c.vocab;
  return sequences * forward * (backward ? 3 : 1);
}

LossResult Trainer::step(int n) {
  require_in_range(n, 1, 100000, "steps");
  require_within_budget(training_multiply_adds(config_, static_cast<std::uint64_t>(n) * config_.batch_size, true),
                        kMaxTrainingMultiplyAdds, "kMaxTrainingMultiplyAdds", "training steps");
  double loss = 0, accuracy = 0;
  int scored = 0;
  for (int s = 0; s < n; ++s) {
    const TaskBatch batch = make_task_batch(config_.task, config_.vocab, config_.seq_len,
                                            config_.offset, config_.batch_size, data_state_);
    // Nothing can be undone when a step overflows (earlier steps changed the weights); say so.
    const auto diverged = [&](const std::string& why) {
      return InvalidArgument(message("training diverged at step ", adam_.steps() + 1, " (", why,
                                     "): create a new trainer with a smaller learning_rate"));
    };
    LossResult r;
    try {
      r = model_.run(batch, true);
    } catch (const InvalidArgument& e) {
      throw diverged(e.what());
    }
    if (!std::isfinite(r.loss)) throw diverged("the loss is not a finite number");
    adam_.step(model_.parameters());
    loss += r.loss;
    accuracy += r.accuracy;
    scored += r.scored;
  }
  LossResult result;
  result.loss = loss / n;
  result.accuracy = accuracy / n;
  result.scored = scored;
  return result;
}

LossResult Trainer::evaluate() { return model_.run(eval_set_, false); }

void Trainer::set_head_mask(const std::vector<bool>& mask) {
  const int h = config_.num_heads, layers = config_.num_layers;
  if (static_cast<int>(mask.size()) != h * layers) {
    throw InvalidArgument(message("head mask: expected ", layers, " x ", h, " = ", h * layers,
                                  " entries (layer-major), got ", mask.size()));
  }
  for (int l = 0; l < layers; ++l)
    for (int i = 0; i < h; ++i)
      model_.layers()[static_cast<std::size_t>(l)].gates[static_cast<std::size_t>(i)] =
          mask[static_cast<std::size_t>(l * h + i)] ? 0.0f : 1.0f;
}

std::vector<bool> Trainer::head_mask() const {
  std::vector<bool> mask;
  for (const AttentionLayer& layer : model_.layers())
    for (float g : layer.gates) mask.push_back(g == 0.0f);
  return mask;
}

std::vector<HeadImportance> Trainer::importance() {
  const int h = config_.num_heads;
  // Gradient score: mean over evaluation sequences of |d loss_b / d g_i|, loss_b being the
  // sequence's own mean loss (Michel et al. 2019, eq. 3: I_h = E_x |dL(x) / d xi_h|).
  const LossResult base = model_.run(eval_set_, true, true);
  std::vector<HeadImportance> result;
  std::vector<std::vector<double>> scores;
  for (const AttentionLayer& layer : model_.layers()) {
    std::vector<double> s(static_cast<std::size_t>(h));
    for (int i = 0; i < h; ++i) {
      s[static_cast<std::size_t>(i)] =
          static_cast<double>(layer.grad_gates_per_sequence.col(i).cwiseAbs().sum()) / eval_set_.count;
    }
    scores.push_back(std::move(s));
  }
  for (int l = 0; l < config_.num_layers; ++l) {
    AttentionLayer& layer = model_.layers()[static_cast<std::size_t>(l)];
    for (int i = 0; i < h; ++i) {
      float& gate = layer.gates[static_cast<std::size_t>(i)];
      if (gate == 0.0f) continue;
      gate = 0.0f;
      const LossResult without = evaluate();
      gate = 1.0f;
      HeadImportance imp;
      imp.layer = l;
      imp.head = i;
      imp.loss_without = without.loss;
      imp.accuracy_without = without.accuracy;
      imp.loss_change = without.loss - base.loss;
      imp.gradient_score = scores[static_cast<std::size_t>(l)][static_cast<std::size_t>(i)];
      result.push_back(imp);
    }
  }
  return result;
}

Trainer::Example Trainer::example(int example) {
  require_in_range(example, 0, eval_set_.count - 1, "example");
  const int L = config_.seq_len, h = config_.num_heads;
  TaskBatch one;
  one.count = 1;
  one.seq_len = L;
  one.tokens.assign(eval_set_.tokens.begin() + static_cast<std::ptrdiff_t>(example) * L,
                    eval_set_.tokens.begin() + static_cast<std::ptrdiff_t>(example + 1) * L);
  one.labels.assign(eval_set_.labels.begin() + static_cast<std::ptrdiff_t>(example) * L,
                    eval_set_.labels.begin() + static_cast<std::ptrdiff_t>(example + 1) * L);
  model_.run(one, false);
  Example out;
  out.tokens = one.tokens;
  out.labels = one.labels;
  out.predictions = model_.predictions();
  for (const AttentionLayer& layer : model_.layers()) {
    for (int i = 0; i < h; ++i) {
      const float* w = layer.weights(0, i);
      out.weights.insert(out.weights.end(), w, w + static_cast<std::ptrdiff_t>(L) * L);
    }
  }
  return out;
}

}  // namespace mha
