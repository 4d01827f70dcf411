#include "mha/validation.hpp"

#include <cmath>
#include <cstdio>

#include "mha/message.hpp"

namespace mha {

std::string describe_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "infinity" : "-infinity";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

void require_in_range(long long value, long long lo, long long hi, const std::string& what) {
  if (value < lo || value > hi) {
    throw InvalidArgument(message(what, ": must be between ", lo, " and ", hi, ", got ", value));
  }
}

void require_within_budget(std::uint64_t planned, std::uint64_t budget, const char* budget_name,
                           const std::string& what) {
  if (planned > budget) {
    throw InvalidArgument(message(what, ": this shape needs ", planned, " multiply-adds, over the work budget ",
                                  budget_name, " = ", budget, " per call; use a smaller shape"));
  }
}

void require_matrix(const std::vector<float>& values, int rows, int cols, const std::string& what) {
  require_matrix(values.data(), values.size(), rows, cols, what);
}

void require_matrix(const float* values, std::size_t count, int rows, int cols, const std::string& what) {
  const std::size_t expected = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (count != expected) {
    throw InvalidArgument(message(what, ": expected ", rows, " x ", cols, " = ", expected,
                                  " values, got ", count));
  }
  for (std::size_t index = 0; index < count; ++index) {
    if (!std::isfinite(values[index])) {
      throw InvalidArgument(message(what, ": entry (", index / cols, ", ", index % cols, ") is ",
                                    describe_number(values[index]),
                                    "; every value must be a finite number"));
    }
  }
}

}  // namespace mha
