// Embind for training (core/include/mha/training.hpp): a RawTrainer that owns one
// mha::Trainer. Same rules as multiple_heads_bindings.cpp: every call that can fail returns
// "" or the C++ message (engine.js throws it as AttentionError), no exception crosses into
// JavaScript, and results are typed_memory_view()s of storage owned by the RawTrainer,
// valid until its next call (engine.js copies them at once).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <new>
#include <optional>
#include <string>
#include <vector>

#include "js_results.hpp"
#include "mha/errors.hpp"
#include "mha/training.hpp"

namespace {

using emscripten::val;

using mha_bindings::guarded;

template <typename T>
val view_of(const std::vector<T>& v) {
  return val(emscripten::typed_memory_view(v.size(), v.data()));
}

mha::Task task_of(int task) {
  if (task < 0 || task > 1)
    throw mha::InvalidArgument("task: must be 0 (previous-token) or 1 (back-and-first), got " +
                               std::to_string(task));
  return static_cast<mha::Task>(task);
}

val config_object(const mha::TrainingConfig& c) {
  val o = val::object();
  o.set("task", std::string(mha::task_name(c.task)));
  o.set("vocabSize", c.vocab);
  o.set("seqLen", c.seq_len);
  o.set("offset", c.offset);
  o.set("dModel", c.d_model);
  o.set("numHeads", c.num_heads);
  o.set("numLayers", c.num_layers);
  o.set("causal", c.causal);
  o.set("batchSize", c.batch_size);
  o.set("learningRate", c.learning_rate);
  o.set("evalSize", c.eval_size);
  o.set("steps", c.steps);
  return o;
}

// The defaults of a task as a plain object (engine.js fills missing fields from it).
val default_training_config(int task) {
  try {
    return config_object(mha::default_training_config(task_of(task)));
  } catch (const std::exception&) {
    return val::null();
  }
}

class RawTrainer {
 public:
  // Field order: see engine.js createTrainer().
  std::string configure(int task, int vocab, int seq_len, int offset, int d_model, int num_heads,
                        int num_layers, bool causal, int batch_size, double learning_rate,
                        int eval_size, int steps, unsigned seed) {
    return guarded([&] {
      mha::TrainingConfig c;
      c.task = task_of(task);
      c.vocab = vocab;
      c.seq_len = seq_len;
      c.offset = offset;
      c.d_model = d_model;
      c.num_heads = num_heads;
      c.num_layers = num_layers;
      c.causal = causal;
      c.batch_size = batch_size;
      c.learning_rate = static_cast<float>(learning_rate);
      c.eval_size = eval_size;
      c.steps = steps;
      trainer_.emplace(c, seed);
    });
  }
  val config() const { return trainer_ ? config_object(trainer_->config()) : val::null(); }
  int stepsDone() const { return trainer_ ? trainer_->steps_done() : 0; }

  std::string step(int n) {
    return guarded([&] { store(require().step(n)); });
  }
  std::string evaluate() {
    return guarded([&] { store(require().evaluate()); });
  }
  double loss() const { return last_.loss; }
  double accuracy() const { return last_.accuracy; }
  val outputAccuracy() const { return view_of(last_.output_accuracy); }

  // mask: numbers, non-zero = head switched off, layer-major.
  std::string setHeadMask(const val& mask) {
    return guarded([&] {
      const std::vector<double> values = emscripten::convertJSArrayToNumberVector<double>(mask);
      std::vector<bool> m;
      for (double v : values) m.push_back(v != 0);
      require().set_head_mask(m);
    });
  }
  val headMask() {
    mask_.clear();
    if (trainer_)
      for (bool b : trainer_->head_mask()) mask_.push_back(b ? 1 : 0);
    return view_of(mask_);
  }

  // Packs 6 numbers per head that is on: layer, head, loss_without, accuracy_without,
  // loss_change, gradient_score.
  std::string computeImportance() {
    return guarded([&] {
      const std::vector<mha::HeadImportance> imp = require().importance();
      importance_.clear();
      for (const mha::HeadImportance& i : imp) {
        importance_.insert(importance_.end(), {static_cast<double>(i.layer), static_cast<double>(i.head),
                                               i.loss_without, i.accuracy_without, i.loss_change,
                                               i.gradient_score});
      }
    });
  }
  val importance() const { return view_of(importance_); }

  std::string computeExample(int example) {
    return guarded([&] { example_ = require().example(example); });
  }
  val exampleTokens() const { return view_of(example_.tokens); }
  val exampleLabels() const { return view_of(example_.labels); }
  val examplePredictions() const { return view_of(example_.predictions); }
  val exampleWeights() const { return view_of(example_.weights); }

 private:
  mha::Trainer& require() {
    if (!trainer_) throw mha::InvalidArgument("trainer: not configured");
    return *trainer_;
  }
  void store(const mha::LossResult& r) { last_ = r; }

  std::optional<mha::Trainer> trainer_;
  mha::LossResult last_;
  std::vector<int> mask_;
  std::vector<double> importance_;
  mha::Trainer::Example example_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(training) {
  using namespace emscripten;
  class_<RawTrainer>("RawTrainer")
      .constructor<>()
      .function("configure", &RawTrainer::configure)
      .function("config", &RawTrainer::config)
      .function("stepsDone", &RawTrainer::stepsDone)
      .function("step", &RawTrainer::step)
      .function("evaluate", &RawTrainer::evaluate)
      .function("loss", &RawTrainer::loss)
      .function("accuracy", &RawTrainer::accuracy)
      .function("outputAccuracy", &RawTrainer::outputAccuracy)
      .function("setHeadMask", &RawTrainer::setHeadMask)
      .function("headMask", &RawTrainer::headMask)
      .function("computeImportance", &RawTrainer::computeImportance)
      .function("importance", &RawTrainer::importance)
      .function("computeExample", &RawTrainer::computeExample)
      .function("exampleTokens", &RawTrainer::exampleTokens)
      .function("exampleLabels", &RawTrainer::exampleLabels)
      .function("examplePredictions", &RawTrainer::examplePredictions)
      .function("exampleWeights", &RawTrainer::exampleWeights);
  function("defaultTrainingConfig", &default_training_config);
}
