// Helpers shared by the Catch2 tests.
#pragma once

#include <cstdint>

namespace mha_test {

// xorshift32: the same sequence natively and in wasm (std distributions differ between
// libstdc++ and libc++).
class Xorshift {
 public:
  explicit Xorshift(std::uint32_t seed) : state_(seed != 0 ? seed : 0x9e3779b9u) {}
  std::uint32_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  // Uniform integer in [0, n), n > 0.
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint32_t>(n)); }
  // Uniform in [lo, hi).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 8) * (1.0f / 16777216.0f);
  }

 private:
  std::uint32_t state_;
};

}  // namespace mha_test
