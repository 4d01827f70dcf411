// What every Embind module of the project answers about itself, linked into the page's module
// (multiple_heads_*) and the training module (multiple_heads_train_*): which kernels run, and
// the heap and stack figures the leak tests compare before and after hostile calls. Each
// module has its own heap and stack, so each needs its own copy of these.
#include <emscripten/bind.h>
#include <emscripten/stack.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <Eigen/Core>
#include <string>

#include "mha/kernels.hpp"
#include "mha/lesson_math.hpp"  // kMaxSeededRows
#include "mha/limits.hpp"

namespace {

using emscripten::val;

std::string kernel_target() { return mha::active_kernels().target; }
std::string eigen_simd_instruction_sets() { return Eigen::SimdInstructionSetsInUse(); }
// Bytes of the wasm heap currently allocated by malloc (for leak tests).
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }
// The wasm shadow stack pointer as seen inside this call (for leak tests): the same on
// every call from the same JS depth, unless frames unwound by a JS exception leaked stack.
double wasm_stack_pointer() { return static_cast<double>(emscripten_stack_get_current()); }

// The core's named limits (limits.hpp), so that engine.js checks against the same numbers.
val core_limits() {
  val limits = val::object();
  limits.set("maxSeqLen", mha::kMaxSeqLen);
  limits.set("maxModelWidth", mha::kMaxModelWidth);
  limits.set("maxSeededRows", mha::kMaxSeededRows);
  // Exact as doubles: both are below 2^53.
  limits.set("maxForwardMultiplyAdds", static_cast<double>(mha::kMaxForwardMultiplyAdds));
  limits.set("maxSpectrumMultiplyAdds", static_cast<double>(mha::kMaxSpectrumMultiplyAdds));
  return limits;
}

}  // namespace

EMSCRIPTEN_BINDINGS(module_info) {
  using namespace emscripten;
  function("kernelTarget", &kernel_target);
  function("eigenSimdInstructionSets", &eigen_simd_instruction_sets);
  function("heapBytesInUse", &heap_bytes_in_use);
  function("wasmStackPointer", &wasm_stack_pointer);
  function("coreLimits", &core_limits);
}
