// Every rejected input is reported as mha::InvalidArgument, whose message names the bad
// argument and says what was expected, e.g.
//   "X: expected 10 x 8 = 80 values, got 79"
//   "W_Q of head 1: entry (3, 0) is NaN; every weight must be a finite number".
// Nothing in the core aborts on bad input; the bindings turn this into a JavaScript Error.
#pragma once

#include <stdexcept>
#include <string>

namespace mha {

class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace mha
