// Training a tiny attention-only transformer on the learner's device, and taking its heads
// apart afterwards.
//
//   x_0      = E[token_t] + P[t]                                 token + position embedding
//   x_{l+1}  = x_l + MHA_l(x_l)        (l = 0 .. num_layers - 1)  residual attention layers
//   logits_t = x_L[t] W_U + b_U                                  linear read-out
//   loss     = mean over the scored positions of -log softmax(logits_t)[label_t]
//
// MHA_l is the layer of attention.hpp (same packing: head i owns column block i of W_Q,
// W_K, W_V and row block i of W_O), with one extra number per head, its gate g_i:
//   Concat = [g_1 head_1 | ... | g_h head_h],   MHA(x) = Concat W_O.
// Gates are not trained. They are 1, or 0 for a head that is switched off (ablation), and
// d loss / d g_i at g_i = 1 is the head-importance score of Michel et al. (2019).
//
// Everything is a template on the scalar type T. T = float is what the page trains with,
// through the active float kernels (SIMD128 in the SIMD build). T = double is the very same
// code with the double-precision reference kernels: the tests check its gradients against
// finite differences to 1e-6, which float rounding could never show.
//
// Determinism: every random number (initial weights, training batches, the evaluation set)
// comes from xorshift32 streams derived from the trainer's seed, so a seed names a run.
// (Float results differ in the last bits between the SIMD, scalar and native builds.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Dense>

namespace mha {

template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// ---------------------------------------------------------------------------------------
// One multi-head self-attention layer with its backward pass
// ---------------------------------------------------------------------------------------
//
// Works on a batch of sequences stacked row-wise: x is (batch * seq_len) x d_model, rows
// b * seq_len .. (b + 1) * seq_len - 1 are sequence b. Attention never crosses sequences.
template <typename T>
class AttentionLayerT {
 public:
  // Throws InvalidArgument unless d_model >= 1, 1 <= h <= d_model and h divides d_model.
  AttentionLayerT(int d_model, int num_heads, bool causal);

  int d_model() const { return d_model_; }
  int num_heads() const { return num_heads_; }
  int d_k() const { return d_model_ / num_heads_; }
  bool causal() const { return causal_; }

  // Parameters. w_qkv = [W_Q | W_K | W_V] (d_model x 3 d_model), w_o (d_model x d_model).
  MatrixT<T> w_qkv, w_o;
  std::vector<T> gates;  // one per head; 1 = on, 0 = ablated

  // Gradients, written (not accumulated) by backward().
  MatrixT<T> grad_w_qkv, grad_w_o;
  std::vector<T> grad_gates;           // d loss / d g_i, summed over the batch
  MatrixT<T> grad_gates_per_sequence;  // batch x h: the same, one row per sequence

  // y = MHA(x) (no residual), for `batch` sequences of seq_len tokens. Keeps what
  // backward() needs (x, Q K V, every head's weights).
  void forward(const MatrixT<T>& x, int batch, int seq_len, MatrixT<T>& y);
  // Given dy = d loss / d y, sets every gradient above and dx = d loss / d x (through this
  // layer only; the caller adds the residual path).
  void backward(const MatrixT<T>& dy, MatrixT<T>& dx);

  // Head `head`'s attention weights for sequence `b` of the last forward(): seq_len x
  // seq_len, row-major, rows summing to 1.
  const T* weights(int b, int head) const;

 private:
  int d_model_, num_heads_;
  bool causal_;
  int batch_ = 0, seq_len_ = 0;
  MatrixT<T> x_, qkv_, heads_, concat_, probs_;  // probs_: (batch * h) rows of L x L
  MatrixT<T> scratch_a_, scratch_b_, scratch_c_, d_concat_, d_qkv_;
};

using AttentionLayer = AttentionLayerT<float>;
using AttentionLayerD = AttentionLayerT<double>;

// ---------------------------------------------------------------------------------------
// Synthetic tasks
// ---------------------------------------------------------------------------------------

enum class Task {
  // label_t = token_{t-1}, scored for t >= 1. One clean job: a previous-token head.
  PreviousToken,
  // label_t = (token_{t-k}, token_0), stored as the pair index token_{t-k} * vocab +
  // token_0, scored for t >= k + 1 (so the two source positions differ). Two relationships
  // at once: the token k places back and the first token of the sequence. The model
  // predicts the pair as two tokens, each with its own linear read-out (see ModelConfig).
  BackAndFirst,
};

const char* task_name(Task task);  // "previous-token", "back-and-first"

// A batch of `count` sequences: tokens and labels are count x seq_len, row-major; label -1
// marks a position that is not scored.
struct TaskBatch {
  int count = 0, seq_len = 0;
  std::vector<int> tokens, labels;
};

// Tokens predicted at each scored position: 1, or 2 for BackAndFirst. A label is the
// base-vocab number whose digits are those tokens (first output most significant).
int task_outputs(Task task);

// `count` sequences of uniformly random tokens with their labels, drawn from `state`
// (xorshift32, advanced).
TaskBatch make_task_batch(Task task, int vocab, int seq_len, int offset, int count,
                          std::uint32_t& state);

// ---------------------------------------------------------------------------------------
// The tiny transformer
// ---------------------------------------------------------------------------------------

// The read-out predicts `outputs` tokens per position, each through its own block of
// vocab columns of W_U and its own softmax; the loss adds their cross-entropies.
//
// Why separate read-outs for the two-relationship task rather than one softmax over the
// vocab^2 pairs: one head's output is a blend alpha v(a) + beta v(b) of the two tokens' value
// vectors. With alpha != beta that blend is different for every ordered pair, so a vocab^2-way
// linear read-out can decode it (measured: one head then reaches 100%, only later). A linear
// read-out of one token, though, must put all blends with the same b in one convex region,
// and the sets {beta u_b + alpha conv(U)} for different b overlap whenever alpha >= beta (and
// symmetrically for a): one head can serve one read-out, not both. That is the lesson's
// claim, in the form a transformer's unembedding has: linear, one prediction at a time.
struct ModelConfig {
  int vocab = 8;        // token ids 0 .. vocab - 1
  int outputs = 1;      // tokens predicted per position (read-out width outputs * vocab)
  int seq_len = 10;     // L
  int d_model = 32;
  int num_heads = 2;
  int num_layers = 1;
  bool causal = true;
};

struct LossResult {
  double loss = 0;      // mean over scored positions of the summed cross-entropies
  double accuracy = 0;  // share of scored positions whose every output is right
  int scored = 0;       // number of scored positions
  std::vector<double> output_accuracy;  // per output: share of scored positions it gets right
};

template <typename T>
class TinyTransformerT {
 public:
  // Validates the configuration (InvalidArgument naming the field) and initialises every
  // weight from `seed`: embeddings uniform in +/- 1, W_QKV and W_U in +/- sqrt(3 / d), W_O in
  // half that (see training_model.cpp for why).
  TinyTransformerT(const ModelConfig& config, std::uint32_t seed);

  const ModelConfig& config() const { return config_; }

  // Forward pass over a batch; with `backward`, also every gradient of the mean loss.
  // `per_sequence_loss`: weight each sequence's positions by 1 / (its scored positions)
  // instead of 1 / (all scored positions), so that the gates' per-sequence gradients are
  // those of each sequence's own mean loss (used by the importance score).
  LossResult run(const TaskBatch& batch, bool backward, bool per_sequence_loss = false);

  std::vector<AttentionLayerT<T>>& layers() { return layers_; }
  const std::vector<AttentionLayerT<T>>& layers() const { return layers_; }

  // Parameters and their gradients, in a fixed order (names for messages and tests):
  // "token embedding", "position embedding", "layer l W_QKV", "layer l W_O", ...,
  // "read-out W_U", "read-out b_U".
  struct ParameterRef {
    std::string name;
    MatrixT<T>* value;
    MatrixT<T>* grad;
  };
  std::vector<ParameterRef> parameters();

  // Predicted label (outputs' arg-maxes as base-vocab digits) of every position of the last
  // run() (count x seq_len).
  const std::vector<int>& predictions() const { return predictions_; }

 private:
  // The two halves of run() around the loss: the embedding, the layers and the read-out
  // (into logits_); then, from d loss / d logits (in logits_), every gradient.
  void forward_pass(const TaskBatch& batch);
  void backward_pass(const TaskBatch& batch);

  ModelConfig config_;
  MatrixT<T> token_embedding_, position_embedding_, readout_w_, readout_b_;
  MatrixT<T> grad_token_embedding_, grad_position_embedding_, grad_readout_w_, grad_readout_b_;
  std::vector<AttentionLayerT<T>> layers_;
  std::vector<MatrixT<T>> residual_;  // x_0 .. x_L
  MatrixT<T> logits_, layer_out_, d_x_, d_layer_, scratch_;
  std::vector<int> predictions_;
};

using TinyTransformer = TinyTransformerT<float>;
using TinyTransformerD = TinyTransformerT<double>;

// Adam (Kingma & Ba) with bias correction, over any list of parameters.
template <typename T>
class AdamT {
 public:
  explicit AdamT(double learning_rate, double beta1 = 0.9, double beta2 = 0.999,
                 double epsilon = 1e-8);
  void step(const std::vector<typename TinyTransformerT<T>::ParameterRef>& parameters);
  int steps() const { return t_; }

 private:
  double lr_, beta1_, beta2_, eps_;
  int t_ = 0;
  std::vector<MatrixT<T>> m_, v_;
};

// ---------------------------------------------------------------------------------------
// Trainer: model + task + Adam + a fixed evaluation set, what the page drives
// ---------------------------------------------------------------------------------------

struct TrainingConfig {
  Task task = Task::BackAndFirst;
  int vocab = 16;
  int seq_len = 10;
  int offset = 2;          // k of BackAndFirst (ignored by PreviousToken)
  int d_model = 16;
  int num_heads = 2;
  int num_layers = 1;
  bool causal = true;
  int batch_size = 32;
  float learning_rate = 3e-3f;
  int eval_size = 256;     // sequences in the fixed evaluation set
  int steps = 1500;        // the demo's training length (a suggestion; step() takes any n)
};

// The defaults the lesson uses for each task (its demo sizes), chosen by measurement:
// BackAndFirst at d_model = 16, vocab 16, L = 10, k = 2, 1500 steps. There one head learns
// the first token and stays at chance (1/16) on the token k back for thousands of steps
// (at seeds 1 and 3 it escapes after 3000-5000 steps and reaches 88-96%), while two and
// four heads of width 8 and 4 reach 100% within 1000 steps. So within the demo's budget the
// difference is real; given 3-4x longer, one head partly catches up. (At d_model = 32 and
// vocab 8 one head learns both within 1500 steps: see the header note on the read-out.)
// PreviousToken: vocab 16, d_model 16, 4 heads, 400 steps.
TrainingConfig default_training_config(Task task);

// The multiply-adds of running `sequences` sequences forward (and backward, 2x more), what
// a training call's work budget (kMaxTrainingMultiplyAdds, limits.hpp) is checked against.
std::uint64_t training_multiply_adds(const TrainingConfig& config, std::uint64_t sequences, bool backward);

struct HeadImportance {
  int layer = 0, head = 0;
  double loss_without = 0;      // evaluation loss with this head (also) switched off
  double accuracy_without = 0;
  double loss_change = 0;       // loss_without - loss with the current mask
  double gradient_score = 0;    // mean over evaluation sequences of |d loss / d g_head|
};

class Trainer {
 public:
  // Throws InvalidArgument naming the bad field.
  Trainer(const TrainingConfig& config, std::uint32_t seed);

  const TrainingConfig& config() const { return config_; }
  int steps_done() const { return adam_.steps(); }

  // n Adam steps on fresh random batches (1 <= n <= 100000, and n batches within the work
  // budget kMaxTrainingMultiplyAdds, checked before any step); returns the mean training
  // loss and accuracy over those batches. Heads switched off stay off (and untrained).
  // Throws InvalidArgument if the loss stops being finite (learning rate far too large);
  // the trainer is then unusable.
  LossResult step(int n);

  // Loss and accuracy on the fixed evaluation set, with the current head mask.
  LossResult evaluate();

  // Switches heads off (true = ablated), num_layers * num_heads entries, layer-major.
  void set_head_mask(const std::vector<bool>& mask);
  std::vector<bool> head_mask() const;

  // For every head that is on: the evaluation loss and accuracy with it also switched off,
  // and the gradient score of Michel et al. at the current mask. Layer-major.
  std::vector<HeadImportance> importance();

  // Runs evaluation sequence `example` (0 .. eval_size - 1) and returns every head's
  // attention weights, layer-major: num_layers * num_heads matrices of L x L, packed.
  // Also fills the example's tokens, labels and predictions.
  struct Example {
    std::vector<int> tokens, labels, predictions;
    std::vector<float> weights;
  };
  Example example(int example);

  TinyTransformer& model() { return model_; }

 private:
  TrainingConfig config_;
  TinyTransformer model_;
  AdamT<float> adam_;
  std::uint32_t data_state_;
  TaskBatch eval_set_;
};

}  // namespace mha
