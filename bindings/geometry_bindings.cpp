// Embind for the blend demonstration's geometry (core/include/mha/geometry.hpp): the reader
// that picks the candidate a reading resembles most, and the 2-D principal plane.
//
// As in lesson_math_bindings.cpp, each function returns { error: "" | message, ...results }
// with arrays copied into fresh typed arrays, and no C++ exception crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <new>
#include <string>
#include <vector>

#include "mha/geometry.hpp"

namespace {

using emscripten::val;

template <typename T>
val copy_to_js(const char* array_type, const std::vector<T>& v) {
  return val::global(array_type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

std::vector<float> from_js(const val& array) {
  return emscripten::convertJSArrayToNumberVector<float>(array);
}

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

val nearest_by_cosine(const val& readings, int rows, int dim, const val& candidates, int count) {
  return guarded_object([&](val& r) {
    const mha::NearestCandidates nearest =
        mha::nearest_by_cosine(from_js(readings), rows, dim, from_js(candidates), count);
    r.set("choice", copy_to_js("Int32Array", nearest.choice));
    r.set("cosines", copy_to_js("Float64Array", nearest.cosines));
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
