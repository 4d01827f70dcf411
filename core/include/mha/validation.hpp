// Shape and value checks shared by every entry point. Each throws InvalidArgument with a
// message that names the argument (`what`) and says what was expected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mha/errors.hpp"
#include "mha/message.hpp"  // describe_number

namespace mha {

// Requires values.size() == rows * cols and every value finite.
void require_matrix(const std::vector<float>& values, int rows, int cols, const std::string& what);
void require_matrix(const float* values, std::size_t count, int rows, int cols, const std::string& what);
// Requires lo <= value <= hi (inclusive).
void require_in_range(long long value, long long lo, long long hi, const std::string& what);
// Requires planned <= budget: the work a call would do (multiply-adds) within the budget
// named budget_name (limits.hpp), checked before the call does any of it.
void require_within_budget(std::uint64_t planned, std::uint64_t budget, const char* budget_name,
                           const std::string& what);

}  // namespace mha
