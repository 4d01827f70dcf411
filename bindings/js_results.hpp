// What the bindings share so that no C++ exception crosses into JavaScript: guarded()
// runs an action and returns "" or the exception's message (for class methods), and
// guarded_object() fills a result object { error: "" | message, ... } (for functions).
// Arrays go out as fresh typed arrays (not views into the wasm heap, which memory growth
// would detach).
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <exception>
#include <new>
#include <string>
#include <vector>

namespace mha_bindings {

using emscripten::val;

// A fresh JS typed array (`array_type`: "Float32Array", "Float64Array", "Int32Array") holding
// a copy of v.
template <typename T>
val copy_to_js(const char* array_type, const std::vector<T>& v) {
  return val::global(array_type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

inline val copy_to_js(const std::vector<float>& v) { return copy_to_js("Float32Array", v); }

// A JS array of numbers as floats (engine.js has already checked and copied it).
inline std::vector<float> from_js(const val& array) {
  return emscripten::convertJSArrayToNumberVector<float>(array);
}

// Runs `action()`; returns "" on success, else the message of what it threw.
template <typename Action>
std::string guarded(Action&& action) {
  try {
    action();
    return {};
  } catch (const std::bad_alloc&) {
    return "out of memory: this input is too large for the browser";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unexpected error in the core";
  }
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

}  // namespace mha_bindings
