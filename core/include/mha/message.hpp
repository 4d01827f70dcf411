// Building error messages without iostreams: `message("X: expected ", rows, " x ", cols)`.
// (std::ostringstream would pull libc++'s locale machinery, ~70 KB, into the wasm module.)
// Numbers print like %g: 0.5, 1e+30, NaN, infinity.
#pragma once

#include <string>
#include <type_traits>

namespace mha {

std::string describe_number(double value);  // "NaN", "infinity", "-infinity", or %.6g

namespace detail {
inline void append(std::string& out, const std::string& text) { out += text; }
inline void append(std::string& out, const char* text) { out += text; }
inline void append(std::string& out, char c) { out += c; }
template <typename Number, typename = std::enable_if_t<std::is_arithmetic_v<Number>>>
void append(std::string& out, Number value) {
  if constexpr (std::is_integral_v<Number>) out += std::to_string(value);
  else out += describe_number(static_cast<double>(value));
}
}  // namespace detail

template <typename... Parts>
std::string message(const Parts&... parts) {
  std::string out;
  (detail::append(out, parts), ...);
  return out;
}

}  // namespace mha
