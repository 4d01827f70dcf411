// Embind for the blend demonstration's geometry (core/include/mha/geometry.hpp): the reader
// that picks the candidate a reading resembles most, and the 2-D principal plane.
//
// As in lesson_math_bindings.cpp, each function returns { error: "" | message, ...results }
// with arrays copied into fresh typed arrays, and no C++ exception crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "js_results.hpp"
#include "mha/geometry.hpp"

namespace {

using emscripten::val;
using mha_bindings::copy_to_js;
using mha_bindings::from_js;
using mha_bindings::guarded_object;

val nearest_by_cosine(const val& readings, int rows, int dim, const val& candidates, int count) {
  return guarded_object([&](val& r) {
    const mha::NearestCandidates nearest =
        mha::nearest_by_cosine(from_js(readings), rows, dim, from_js(candidates), count);
    r.set("choice", copy_to_js("Int32Array", nearest.choice));
    r.set("cosines", copy_to_js("Float64Array", nearest.cosines));
    r.set("tied", copy_to_js("Uint8Array", nearest.tied));
  });
}

val principal_plane(const val& points, int count, int dim, const val& extra, int extra_count) {
  return guarded_object([&](val& r) {
    const mha::PrincipalPlane plane =
        mha::principal_plane(from_js(points), count, dim, from_js(extra), extra_count);
    r.set("centre", copy_to_js("Float64Array", plane.centre));
    r.set("axes", copy_to_js("Float64Array", plane.axes));
    r.set("coordinates", copy_to_js("Float32Array", plane.coordinates));
    r.set("extraCoordinates", copy_to_js("Float32Array", plane.extra_coordinates));
    r.set("explained", plane.explained);
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(geometry) {
  emscripten::function("nearestByCosine", &nearest_by_cosine);
  emscripten::function("principalPlane", &principal_plane);
}
