#include "mha/validation.hpp"

#include <cmath>
#include <sstream>

namespace mha {

std::string describe_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "infinity" : "-infinity";
  std::ostringstream out;
  out << value;
  return out.str();
}

void require_in_range(long long value, long long lo, long long hi, const std::string& what) {
  if (value < lo || value > hi) {
    std::ostringstream out;
    out << what << ": must be between " << lo << " and " << hi << ", got " << value;
    throw InvalidArgument(out.str());
  }
}

void require_matrix(const std::vector<float>& values, int rows, int cols, const std::string& what) {
  const std::size_t expected = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (values.size() != expected) {
    std::ostringstream out;
    out << what << ": expected " << rows << " x " << cols << " = " << expected
        << " values, got " << values.size();
    throw InvalidArgument(out.str());
  }
  for (std::size_t index = 0; index < values.size(); ++index) {
    if (!std::isfinite(values[index])) {
      std::ostringstream out;
      out << what << ": entry (" << index / cols << ", " << index % cols << ") is "
          << describe_number(values[index]) << "; every value must be a finite number";
      throw InvalidArgument(out.str());
    }
  }
}

}  // namespace mha
