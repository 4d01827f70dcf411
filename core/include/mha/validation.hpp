// Shape and value checks shared by every entry point. Each throws InvalidArgument with a
// message that names the argument (`what`) and says what was expected.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mha/errors.hpp"

namespace mha {

// Requires values.size() == rows * cols and every value finite.
void require_matrix(const std::vector<float>& values, int rows, int cols, const std::string& what);
// Requires lo <= value <= hi (inclusive).
void require_in_range(long long value, long long lo, long long hi, const std::string& what);
// A number as the messages print it: "NaN", "infinity", "-infinity" or e.g. "3.5".
std::string describe_number(double value);

}  // namespace mha
