// Embind for the lesson's small computations (core/include/mha/lesson_math.hpp).
//
// Each function returns a plain JS object: { error: "" | message, ...results }, with
// arrays copied into fresh Float32Arrays (not views), so nothing points into the wasm heap.
// As in multiple_heads_bindings.cpp, no C++ exception crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <new>
#include <string>
#include <vector>

#include "mha/lesson_math.hpp"

namespace {

using emscripten::val;

val copy_to_js(const std::vector<float>& v) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}

std::vector<float> from_js(const val& array) {
  return emscripten::convertJSArrayToNumberVector<float>(array);
}

// Runs `fill(result)`; on an exception, result = { error: message } instead.
template <typename Fill>
val guarded_object(Fill&& fill) {
  val result = val::object();
  try {
    fill(result);
    result.set("error", std::string());
  } catch (const std::bad_alloc&) {
    result = val::object();
    result.set("error", std::string("out of memory: this input is too large for the browser"));
  } catch (const std::exception& e) {
    result = val::object();
    result.set("error", std::string(e.what()));
  }
  return result;
}

val cosine_similarity(const val& a, const val& b) {
  return guarded_object([&](val& r) { r.set("value", mha::cosine_similarity(from_js(a), from_js(b))); });
}

val softmax(const val& scores) {
  return guarded_object([&](val& r) { r.set("values", copy_to_js(mha::softmax(from_js(scores)))); });
}

val component_along(const val& matrix, int rows, int cols, const val& u) {
  return guarded_object([&](val& r) {
    r.set("values", copy_to_js(mha::component_along(from_js(matrix), rows, cols, from_js(u))));
  });
}

val find_alternative_weights(const val& values, int rows, int cols, const val& weights) {
  return guarded_object([&](val& r) {
    const mha::AlternativeWeights alt =
        mha::find_alternative_weights(from_js(values), rows, cols, from_js(weights));
    r.set("found", alt.found);
    r.set("weights", copy_to_js(alt.weights));
    r.set("output", copy_to_js(alt.output));
    r.set("alternativeOutput", copy_to_js(alt.alternative_output));
    r.set("maxOutputDifference", alt.max_output_difference);
    r.set("totalWeightMoved", alt.total_weight_moved);
  });
}

val seeded_matrix(int rows, int cols, unsigned seed, float scale) {
  return guarded_object([&](val& r) { r.set("values", copy_to_js(mha::seeded_matrix(rows, cols, seed, scale))); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(lesson_math) {
  emscripten::function("cosineSimilarity", &cosine_similarity);
  emscripten::function("softmax", &softmax);
  emscripten::function("componentAlong", &component_along);
  emscripten::function("findAlternativeWeights", &find_alternative_weights);
  emscripten::function("seededMatrix", &seeded_matrix);
}
