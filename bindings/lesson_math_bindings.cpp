// Embind for the lesson's small computations (core/include/mha/lesson_math.hpp).
//
// Each function returns a plain JS object: { error: "" | message, ...results }, with
// arrays copied into fresh Float32Arrays (not views), so nothing points into the wasm heap.
// As in multiple_heads_bindings.cpp, no C++ exception crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "js_results.hpp"
#include "mha/lesson_math.hpp"

namespace {

using emscripten::val;
using mha_bindings::copy_to_js;
using mha_bindings::from_js;
using mha_bindings::guarded_object;

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
    r.set("exhaustive", alt.exhaustive);
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
