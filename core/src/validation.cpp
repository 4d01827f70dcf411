#include "mha/validation.hpp"

#include <cmath>
#include <cstdint>

#include "mha/message.hpp"

namespace mha {
namespace {

// The exact decimal digits of a finite v > 0, without leading zeros, into `digits` ("1015625"
// for 1.015625); returns their count and sets `exponent` so that v = d.ddd... x 10^exponent.
// A double is f x 2^e with f < 2^53, so it is the integer f x 2^e (e >= 0) or f x 5^-e / 10^-e
// (e < 0), worked out here in base-1e9 limbs: at most 86 limbs and 774 digits, for the
// smallest subnormals. For error messages: exactness matters here, speed does not.
constexpr int kMaxLimbs = 90;
[[gnu::cold]] int exact_digits(double v, char* digits, int& exponent) {
  int binary_exponent = 0;
  std::uint64_t f = static_cast<std::uint64_t>(std::ldexp(std::frexp(v, &binary_exponent), 53));
  int e = binary_exponent - 53;
  const int fraction_digits = e < 0 ? -e : 0;
  std::uint32_t limbs[kMaxLimbs];  // little-endian, base 1e9
  int count = 0;
  for (; f > 0; f /= 1000000000u) limbs[count++] = static_cast<std::uint32_t>(f % 1000000000u);
  while (e != 0) {
    // Multiply by 2^29, 2^e, 5^13 or 5: each limb's product stays below 2^64.
    const std::uint32_t factor = e >= 29 ? 1u << 29 : e > 0 ? 1u << e : e <= -13 ? 1220703125u : 5u;
    e = e >= 29 ? e - 29 : e > 0 ? 0 : e <= -13 ? e + 13 : e + 1;
    std::uint64_t carry = 0;
    for (int i = 0; i < count; ++i) {
      carry += static_cast<std::uint64_t>(limbs[i]) * factor;
      limbs[i] = static_cast<std::uint32_t>(carry % 1000000000u);
      carry /= 1000000000u;
    }
    for (; carry > 0; carry /= 1000000000u) limbs[count++] = static_cast<std::uint32_t>(carry % 1000000000u);
  }
  int length = 0;
  for (int i = count - 1; i >= 0; --i) {
    for (std::uint32_t value = limbs[i], k = 9; k-- > 0; value /= 10) digits[length + k] = static_cast<char>('0' + value % 10);
    length += 9;
  }
  int first = 0;
  while (first < length - 1 && digits[first] == '0') ++first;
  for (int i = first; i < length; ++i) digits[i - first] = digits[i];
  length -= first;
  exponent = length - 1 - fraction_digits;
  return length;
}

}  // namespace

// printf's "%.6g", written out: printf (with the long double arithmetic it brings) cost about
// 5 kB of the gzipped wasm module for this one use, this about 1 kB. Six significant digits rounded half to
// even on the exact value, as printf does; plain notation for exponents -4 to 5, else
// d.ddddde+XX; trailing zeros dropped. Checked against glibc's and musl's printf on 21.5
// million doubles and floats (random bit patterns, ties, powers of ten, subnormals).
[[gnu::cold]] std::string describe_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "infinity" : "-infinity";
  char digits[kMaxLimbs * 9];
  char out[32];
  int n = 0;
  if (std::signbit(value)) out[n++] = '-';
  if (value == 0) {
    out[n++] = '0';
    return std::string(out, n);
  }
  int exponent = 0;
  const int length = exact_digits(std::abs(value), digits, exponent);
  for (int i = length; i < 6; ++i) digits[i] = '0';
  if (length > 6 && digits[6] >= '5') {
    bool beyond_half = digits[6] > '5';
    for (int i = 7; i < length && !beyond_half; ++i) beyond_half = digits[i] != '0';
    if (beyond_half || (digits[5] - '0') % 2 == 1) {  // round up; an exact half goes to even
      int i = 5;
      for (; i >= 0 && digits[i] == '9'; --i) digits[i] = '0';
      if (i >= 0) {
        ++digits[i];
      } else {  // 999999.5 -> 1000000: one more digit before the point
        digits[0] = '1';
        ++exponent;
      }
    }
  }
  const bool plain = exponent >= -4 && exponent < 6;
  // Digits before the point, then after it (at most 5 + 4 leading zeros), trailing zeros dropped.
  const int before = !plain ? 1 : exponent >= 0 ? exponent + 1 : 0;
  if (before == 0) out[n++] = '0';
  for (int i = 0; i < before; ++i) out[n++] = digits[i];
  int last = 5;
  while (last >= before && digits[last] == '0') --last;
  if (last >= before) {
    out[n++] = '.';
    for (int i = exponent; plain && i < -1; ++i) out[n++] = '0';
    for (int i = before; i <= last; ++i) out[n++] = digits[i];
  }
  if (!plain) {
    const int magnitude = std::abs(exponent);
    out[n++] = 'e';
    out[n++] = exponent < 0 ? '-' : '+';
    if (magnitude >= 100) out[n++] = static_cast<char>('0' + magnitude / 100);
    out[n++] = static_cast<char>('0' + magnitude / 10 % 10);
    out[n++] = static_cast<char>('0' + magnitude % 10);
  }
  return std::string(out, n);
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
