// What the page drives: the synthetic tasks, and the Trainer (the model of
// training_model.cpp, Adam, fresh random batches and a fixed evaluation set), with the
// heads' ablation and importance.
#include <cmath>
#include <string>
#include <vector>

#include "mha/errors.hpp"
#include "mha/limits.hpp"
#include "mha/message.hpp"
#include "mha/training.hpp"
#include "mha/validation.hpp"
#include "training_internal.hpp"

namespace mha {

using training_internal::off;
using training_internal::stream_state;
using training_internal::xorshift;

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
