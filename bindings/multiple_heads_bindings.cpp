// The Embind layer: the only code in the project that knows about Emscripten.
//
// It is deliberately thin and raw. The friendly, typed API lives in web/engine/ (engine.js
// with the hand-written engine.d.ts), which owns object lifetimes and copies results out of
// the wasm heap. The rules this layer keeps:
//
// * No C++ exception ever crosses into JavaScript. In Emscripten 3.1.6 an escaping
//   exception arrives as a bare number (its address), its message cannot be read, and the
//   unwound frames leak shadow stack. So every call that can fail returns a std::string:
//   "" on success, otherwise the C++ message, which engine.js throws as a JS Error.
// * Results are returned as typed_memory_view()s of storage owned by the RawModel (valid
//   until the next call on it, and detached if the wasm memory grows). engine.js copies
//   them out immediately.
// * Getters never fail: before a successful forward() they return empty views.
// * forward() packs the whole trace into one buffer (one call and one copy from JS).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <new>
#include <optional>
#include <string>
#include <vector>

#include "js_results.hpp"
#include "mha/attention.hpp"
#include "mha/lesson_math.hpp"

namespace {

using emscripten::val;
using mha::MatrixF;

using mha_bindings::guarded;

std::vector<float> to_floats(const val& array) {
  return emscripten::convertJSArrayToNumberVector<float>(array);
}

val view_of(const MatrixF& m) {
  return val(emscripten::typed_memory_view(static_cast<std::size_t>(m.size()), m.data()));
}

template <typename T>
val view_of(const std::vector<T>& v) {
  return val(emscripten::typed_memory_view(v.size(), v.data()));
}

mha::Projection projection_of(int which) {
  if (which < 0 || which > 2)
    throw mha::InvalidArgument("projection: must be 0 (W_Q), 1 (W_K) or 2 (W_V), got " +
                               std::to_string(which));
  return static_cast<mha::Projection>(which);
}

struct RawCounts {
  double projections, scores, weightedSum, output, exponentials;
};

class RawModel {
 public:
  // Never fails; a RawModel starts as L = 1, d_model = 1, h = 1 until configure().
  RawModel() : model_({1, 1, 1, false}) {}

  std::string configure(int seq_len, int d_model, int num_heads, bool causal) {
    return guarded([&] {
      model_ = mha::MultiHeadAttention({seq_len, d_model, num_heads, causal});
      trace_.reset();
    });
  }
  int seqLen() const { return model_.config().seq_len; }
  int dModel() const { return model_.config().d_model; }
  int numHeads() const { return model_.config().num_heads; }
  bool causal() const { return model_.config().causal; }

  std::string randomize(unsigned seed) { return guarded([&] { model_.randomize(seed); }); }

  std::string setHeadProjection(int which, int head, const val& values) {
    return guarded([&] { model_.set_head_projection(projection_of(which), head, to_floats(values)); });
  }
  std::string setProjection(int which, const val& values) {
    return guarded([&] { model_.set_projection(projection_of(which), to_floats(values)); });
  }
  std::string setOutputProjection(const val& values) {
    return guarded([&] { model_.set_output_projection(to_floats(values)); });
  }
  // The whole packed W_Q / W_K / W_V (0, 1, 2) or W_O (3), d_model x d_model.
  val weights(int which) const {
    if (which == 3) return view_of(model_.output_projection());
    if (which < 0 || which > 3) return view_of(empty_);
    return view_of(model_.projection(static_cast<mha::Projection>(which)));
  }

  std::string setAttentionOverride(int head, const val& weights) {
    return guarded([&] { model_.set_attention_override(head, to_floats(weights)); });
  }
  std::string clearAttentionOverride(int head) {
    return guarded([&] { model_.clear_attention_override(head); });
  }
  std::string renormalizeRows(const val& weights) {
    const int L = model_.config().seq_len;
    return guarded([&] { scratch_ = mha::renormalize_rows(to_floats(weights), L, L); });
  }
  val renormalized() const { return view_of(scratch_); }

  // Runs the forward pass and packs the whole trace into one buffer, so that JavaScript
  // fetches and copies it with one call instead of one per matrix (at lesson sizes the
  // calls, not the arithmetic, would dominate). Layout, all row-major float32:
  //   queries, keys, values, concat, output            (L x d_model each)
  //   then per head i: scores (L x L), weights (L x L) (these two only with
  //                    keep_attention), output (L x d_k), contribution (L x d_model, only
  //                    if requested), overridden (1 value: 0 or 1)
  std::string forward(const val& x, bool per_head_contributions, bool keep_attention) {
    return guarded([&] {
      trace_.reset();
      mha::ForwardTrace trace =
          model_.forward(to_floats(x), mha::ForwardOptions{per_head_contributions, keep_attention});
      std::size_t size = 5 * static_cast<std::size_t>(trace.output.size());
      for (const mha::HeadTrace& head : trace.heads) {
        size += head.scores.size() + head.weights.size() + head.output.size() +
                head.contribution.size() + 1;
      }
      packed_.clear();
      packed_.reserve(size);
      auto append = [&](const MatrixF& m) { packed_.insert(packed_.end(), m.data(), m.data() + m.size()); };
      for (const MatrixF* m : {&trace.queries, &trace.keys, &trace.values, &trace.concat, &trace.output}) append(*m);
      for (const mha::HeadTrace& head : trace.heads) {
        append(head.scores);
        append(head.weights);
        append(head.output);
        append(head.contribution);
        packed_.push_back(head.weights_overridden ? 1.0f : 0.0f);
      }
      trace_ = std::move(trace);
    });
  }
  bool hasTrace() const { return trace_.has_value(); }
  val packedTrace() const { return view_of(packed_); }
  RawCounts counts() const {
    if (!trace_) return {0, 0, 0, 0, 0};
    const mha::OperationCounts& c = trace_->counts;
    // uint64 -> double is exact below 2^53, far above any count this page can produce.
    return {static_cast<double>(c.projections), static_cast<double>(c.scores),
            static_cast<double>(c.weighted_sum), static_cast<double>(c.output),
            static_cast<double>(c.exponentials)};
  }

  std::string computeSimilaritySpectrum(int head) {
    return guarded([&] { spectrum_ = model_.similarity_singular_values(head); });
  }
  val spectrum() const { return view_of(spectrum_); }
  // How many of the last computed singular values exceed relativeTolerance times the
  // largest (the core's numerical_rank; 0 before any spectrum). Never fails: engine.js
  // checks the tolerance before the call.
  int spectrumRank(double relativeTolerance) const { return mha::numerical_rank(spectrum_, relativeTolerance); }

 private:
  mha::MultiHeadAttention model_;
  std::optional<mha::ForwardTrace> trace_;
  std::vector<float> scratch_;
  std::vector<float> packed_;
  std::vector<double> spectrum_;
  MatrixF empty_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(multiple_heads) {
  using namespace emscripten;
  value_object<RawCounts>("RawCounts")
      .field("projections", &RawCounts::projections)
      .field("scores", &RawCounts::scores)
      .field("weightedSum", &RawCounts::weightedSum)
      .field("output", &RawCounts::output)
      .field("exponentials", &RawCounts::exponentials);

  class_<RawModel>("RawModel")
      .constructor<>()
      .function("configure", &RawModel::configure)
      .function("seqLen", &RawModel::seqLen)
      .function("dModel", &RawModel::dModel)
      .function("numHeads", &RawModel::numHeads)
      .function("causal", &RawModel::causal)
      .function("randomize", &RawModel::randomize)
      .function("setHeadProjection", &RawModel::setHeadProjection)
      .function("setProjection", &RawModel::setProjection)
      .function("setOutputProjection", &RawModel::setOutputProjection)
      .function("weights", &RawModel::weights)
      .function("setAttentionOverride", &RawModel::setAttentionOverride)
      .function("clearAttentionOverride", &RawModel::clearAttentionOverride)
      .function("renormalizeRows", &RawModel::renormalizeRows)
      .function("renormalized", &RawModel::renormalized)
      .function("forward", &RawModel::forward)
      .function("hasTrace", &RawModel::hasTrace)
      .function("packedTrace", &RawModel::packedTrace)
      .function("counts", &RawModel::counts)
      .function("computeSimilaritySpectrum", &RawModel::computeSimilaritySpectrum)
      .function("spectrum", &RawModel::spectrum)
      .function("spectrumRank", &RawModel::spectrumRank);
}
