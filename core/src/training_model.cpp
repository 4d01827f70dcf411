// The tiny transformer of training.hpp (embeddings, residual attention layers, a linear
// read-out per output, cross-entropy) with its gradients, and Adam, in float (the page) or
// double (the gradient tests). The products go through Ops<T> (training_internal.hpp).
#include <cmath>
#include <vector>

#include "mha/errors.hpp"
#include "mha/message.hpp"
#include "mha/training.hpp"
#include "mha/validation.hpp"
#include "training_internal.hpp"

namespace mha {

using training_internal::Ops;
using training_internal::seeded;
using training_internal::stream_state;

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

// Digits of each label: target[r G + g] is the token output g must predict at row r
// (-1: not scored), and the scored positions, in all and per sequence.
struct Targets {
  std::vector<int> target;     // N x G
  std::vector<int> scored_in;  // one count per sequence
  int scored = 0;
};

Targets label_targets(const TaskBatch& batch, int G, int V) {
  const int L = batch.seq_len, N = batch.count * L;
  int label_limit = 1;
  for (int g = 0; g < G; ++g) label_limit *= V;
  Targets targets;
  targets.target.assign(static_cast<std::size_t>(N) * G, -1);
  targets.scored_in.assign(static_cast<std::size_t>(batch.count), 0);
  for (int r = 0; r < N; ++r) {
    int label = batch.labels[static_cast<std::size_t>(r)];
    if (label < 0) continue;
    if (label >= label_limit) {
      throw InvalidArgument(message("batch: label ", label, " at position ", r % L, " of sequence ",
                                    r / L, " is outside 0 .. ", label_limit - 1));
    }
    for (int g = G - 1; g >= 0; --g, label /= V) targets.target[static_cast<std::size_t>(r) * G + g] = label % V;
    ++targets.scored;
    ++targets.scored_in[static_cast<std::size_t>(r / L)];
  }
  if (targets.scored == 0) throw InvalidArgument("batch: no position has a label");
  return targets;
}

// Cross-entropy of each output. For its logits z with maximum m and softmax p:
//   -log p_y = log sum_c exp(z_c - m) - (z_y - m) = -log p_argmax + (m - z_y),
// because p_argmax = exp(0) / sum_c exp(z_c - m). Both terms stay finite even when p_y
// underflows. logits becomes the softmaxes in place (the gradient needs them); predictions
// gets each row's predicted label (the outputs' arg-maxes as base-V digits).
template <typename T>
LossResult cross_entropy(MatrixT<T>& logits, const TaskBatch& batch, const Targets& targets, int V,
                         int G, std::vector<int>& predictions) {
  const int N = static_cast<int>(logits.rows()), C = G * V;
  const std::vector<int>& target = targets.target;
  const int scored = targets.scored;
  predictions.assign(static_cast<std::size_t>(N), 0);
  std::vector<int> arg(static_cast<std::size_t>(N) * G);
  std::vector<T> row_max(static_cast<std::size_t>(N) * G), z_label(static_cast<std::size_t>(N) * G, T(0));
  for (int r = 0; r < N; ++r) {
    for (int g = 0; g < G; ++g) {
      const std::size_t rg = static_cast<std::size_t>(r) * G + g;
      Eigen::Index a;
      row_max[rg] = logits.row(r).segment(g * V, V).maxCoeff(&a);
      arg[rg] = static_cast<int>(a);
      predictions[static_cast<std::size_t>(r)] = predictions[static_cast<std::size_t>(r)] * V + arg[rg];
      if (target[rg] >= 0) z_label[rg] = logits(r, g * V + target[rg]);
    }
  }
  for (int g = 0; g < G; ++g) Ops<T>::softmax(N, V, logits.data() + g * V, C);
  double total = 0;
  int correct = 0;
  std::vector<int> correct_output(static_cast<std::size_t>(G), 0);
  for (int r = 0; r < N; ++r) {
    if (batch.labels[static_cast<std::size_t>(r)] < 0) continue;
    bool all = true;
    for (int g = 0; g < G; ++g) {
      const std::size_t rg = static_cast<std::size_t>(r) * G + g;
      const T p_max = logits(r, g * V + arg[rg]);
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
  return result;
}

// d loss / d logits = (p - onehot(target)) / n in each output's block, for scored rows
// (n = scored positions, or the sequence's own count with per_sequence_loss); 0 for the
// others. In place: logits holds the softmaxes on entry (cross_entropy).
template <typename T>
void logits_gradient(MatrixT<T>& logits, const TaskBatch& batch, const Targets& targets, int V, int G,
                     bool per_sequence_loss) {
  const int L = batch.seq_len, N = static_cast<int>(logits.rows());
  const std::vector<int>& target = targets.target;
  for (int r = 0; r < N; ++r) {
    if (batch.labels[static_cast<std::size_t>(r)] < 0) {
      logits.row(r).setZero();
      continue;
    }
    const T n = static_cast<T>(per_sequence_loss ? targets.scored_in[static_cast<std::size_t>(r / L)] : targets.scored);
    for (int g = 0; g < G; ++g) logits(r, g * V + target[static_cast<std::size_t>(r) * G + g]) -= T(1);
    logits.row(r) /= n;
  }
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

// One pass over a batch: forward to the logits, the loss, and with `backward` every
// gradient (each step below says its mathematics).
template <typename T>
LossResult TinyTransformerT<T>::run(const TaskBatch& batch, bool backward, bool per_sequence_loss) {
  const int L = config_.seq_len, V = config_.vocab, G = config_.outputs;
  if (batch.seq_len != L) {
    throw InvalidArgument(message("batch: sequences of ", batch.seq_len,
                                  " tokens, but the model takes seq_len = ", L));
  }
  forward_pass(batch);
  const Targets targets = label_targets(batch, G, V);
  LossResult result = cross_entropy(logits_, batch, targets, V, G, predictions_);
  if (!backward) return result;
  logits_gradient(logits_, batch, targets, V, G, per_sequence_loss);
  backward_pass(batch);
  return result;
}

// Embedding, attention layers and read-out: residual_ holds x_0 .. x_L, logits_ the logits.
template <typename T>
void TinyTransformerT<T>::forward_pass(const TaskBatch& batch) {
  const int d = config_.d_model, L = config_.seq_len, V = config_.vocab;
  const int C = config_.outputs * V;  // read-out width: output g owns columns g V .. g V + V - 1
  const int B = batch.count, N = B * L;
  const std::size_t layers = layers_.size();

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
}

// Every gradient, from d loss / d logits (in logits_, logits_gradient) back through the
// read-out, the layers and the embeddings.
template <typename T>
void TinyTransformerT<T>::backward_pass(const TaskBatch& batch) {
  const int d = config_.d_model, L = config_.seq_len, C = config_.outputs * config_.vocab;
  const int N = batch.count * L;
  const std::size_t layers = layers_.size();
  const MatrixT<T>& top = residual_[layers];
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

}  // namespace mha
