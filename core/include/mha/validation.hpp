// Shape and value checks shared by every entry point. Each throws InvalidArgument with a
// message that names the argument (`what`) and says what was expected.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mha/errors.hpp"
#include "mha/message.hpp"  // describe_number

namespace mha {

// Requires values.size() == rows * cols and every value finite.
void require_matrix(const std::vector<float>& values, int rows, int cols, const std::string& what);
// Requires lo <= value <= hi (inclusive).
void require_in_range(long long value, long long lo, long long hi, const std::string& what);

}  // namespace mha
