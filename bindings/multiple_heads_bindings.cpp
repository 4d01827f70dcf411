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
// * The forward pass is the hot path (a lesson-sized pass is a few thousand multiply-adds,
//   so calls and copies would cost more than the arithmetic). It allocates nothing per
//   call and passes no arrays through Embind: engine.js writes X straight into the model's
//   input buffer in the wasm heap (inputAddress()), forwardInPlace() runs the core into a
//   trace whose buffers are kept between calls, and returns the address of a directory of
//   the trace's matrices, from which engine.js copies (or views) only what its caller asked
//   for.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <new>
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

class RawModel {
 public:
  // Never fails; a RawModel starts as L = 1, d_model = 1, h = 1 until configure().
  RawModel() : model_({1, 1, 1, false}) {}

  std::string configure(int seq_len, int d_model, int num_heads, bool causal) {
    return guarded([&] {
      mha::MultiHeadAttention model({seq_len, d_model, num_heads, causal});
      // The input buffer and the directory are sized once per shape.
      std::vector<float> input(static_cast<std::size_t>(seq_len) * static_cast<std::size_t>(d_model), 0.0f);
      std::vector<std::uint32_t> directory(6 + 5 * static_cast<std::size_t>(num_heads), 0);
      model_ = std::move(model);
      input_ = std::move(input);
      directory_ = std::move(directory);
      trace_ = mha::ForwardTrace();
      scratch_ = mha::ForwardScratch();
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
    return guarded([&] { scratch_rows_ = mha::renormalize_rows(to_floats(weights), L, L); });
  }
  val renormalized() const { return view_of(scratch_rows_); }

  // The byte address of the model's input buffer (L x d_model floats), where engine.js
  // writes X before forwardInPlace(). Stable until the next configure().
  unsigned inputAddress() const { return address_of(input_.data()); }

  // Runs the forward pass on the input buffer, of which the caller filled `count` values
  // (any other count than L x d_model is refused with the core's message, before the
  // buffer is read). flags: 1 = per-head contributions, 2 = keep attention (L x L scores
  // and weights), 4 = copy each head's output out of Concat. Returns the byte address of
  // the directory below, or 0 on failure (then lastError() says why, and the previous
  // trace is gone). Directory, uint32 entries (byte addresses, 0 for an empty matrix):
  //   [0..4] queries, keys, values, concat, output (L x d_model each)
  //   [5]    the counts: 5 float64 (projections, scores, weightedSum, output, exponentials)
  //   then per head i, 5 entries from 6 + 5 i: scores (L x L), weights (L x L), output
  //          (L x d_k), contribution (L x d_model), and 1 if its weights were supplied.
  // The addresses stay valid until the next call on this model (the buffers are reused
  // and resized only when the shape or the flags change).
  unsigned forwardInPlace(int flags, double count) {
    last_error_ = guarded([&] {
      const mha::ForwardOptions options{(flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0};
      // count comes from a JS length (engine.js passes a whole number >= 0); anything else
      // becomes a count no shape has, which the core refuses by name.
      const std::size_t values = count >= 0 && count <= 4294967295.0 ? static_cast<std::size_t>(count)
                                                                     : static_cast<std::size_t>(-1);
      model_.forward_into(input_.data(), values, options, trace_, scratch_);
    });
    if (!last_error_.empty()) return 0;
    const mha::OperationCounts& c = trace_.counts;
    // uint64 -> double is exact below 2^53, far above any count this page can produce.
    counts_[0] = static_cast<double>(c.projections);
    counts_[1] = static_cast<double>(c.scores);
    counts_[2] = static_cast<double>(c.weighted_sum);
    counts_[3] = static_cast<double>(c.output);
    counts_[4] = static_cast<double>(c.exponentials);
    std::uint32_t* entry = directory_.data();
    for (const MatrixF* m : {&trace_.queries, &trace_.keys, &trace_.values, &trace_.concat, &trace_.output}) {
      *entry++ = matrix_address(*m);
    }
    *entry++ = address_of(counts_);
    for (const mha::HeadTrace& head : trace_.heads) {
      *entry++ = matrix_address(head.scores);
      *entry++ = matrix_address(head.weights);
      *entry++ = matrix_address(head.output);
      *entry++ = matrix_address(head.contribution);
      *entry++ = head.weights_overridden ? 1 : 0;
    }
    return address_of(directory_.data());
  }
  // The message of the last failed forwardInPlace(), handed over once (the model keeps no
  // heap for it afterwards; a second call returns "").
  std::string lastError() {
    std::string message = std::move(last_error_);
    last_error_ = std::string();
    return message;
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
  static unsigned address_of(const void* p) {
    return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p));
  }
  static unsigned matrix_address(const MatrixF& m) { return m.size() == 0 ? 0 : address_of(m.data()); }

  mha::MultiHeadAttention model_;
  std::vector<float> input_ = std::vector<float>(1, 0.0f);  // L x d_model of the default 1 x 1 model
  std::vector<std::uint32_t> directory_ = std::vector<std::uint32_t>(11, 0);
  mha::ForwardTrace trace_;
  mha::ForwardScratch scratch_;
  std::string last_error_;
  alignas(8) double counts_[5] = {0, 0, 0, 0, 0};
  std::vector<float> scratch_rows_;
  std::vector<double> spectrum_;
  MatrixF empty_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(multiple_heads) {
  using namespace emscripten;
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
      .function("inputAddress", &RawModel::inputAddress)
      .function("forwardInPlace", &RawModel::forwardInPlace)
      .function("lastError", &RawModel::lastError)
      .function("computeSimilaritySpectrum", &RawModel::computeSimilaritySpectrum)
      .function("spectrum", &RawModel::spectrum)
      .function("spectrumRank", &RawModel::spectrumRank);
}
