// describe_number (core/src/validation.cpp) writes numbers in error messages as printf's
// "%.6g" would, without linking printf into the wasm module. The reference here is the
// platform's own snprintf (glibc natively, musl in the wasm build): random bit patterns of
// doubles and floats, powers of ten, halfway cases at the sixth digit, subnormals, zeros.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "mha/message.hpp"
#include "test_support.hpp"

namespace {

std::string printf_g6(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

double from_bits(std::uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace

using mha::describe_number;

TEST_CASE("describe_number writes what printf's %.6g writes", "[message]") {
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-4, 9.99999e-5, 999999.0, 999999.5, 1e6,
                                123456.5, 123457.5, 0.1, 1.0 / 3, 2.5e-7, 1.5, 2.5, 1.25e15,
                                std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::denorm_min(), std::numeric_limits<float>::max(),
                                std::numeric_limits<float>::denorm_min()};
  for (int e = -320; e <= 308; ++e) values.push_back(std::pow(10.0, e));
  // Halfway at the sixth significant digit (exact in binary when the tail is .5 of a power of two).
  for (int e = -10; e <= 10; ++e) values.push_back(std::ldexp(1234565.0, e) / 10);
  mha_test::Xorshift random(7);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = (static_cast<std::uint64_t>(random.next()) << 32) | random.next();
    values.push_back(from_bits(bits));                                           // any double
    float f;
    const std::uint32_t fbits = random.next();
    std::memcpy(&f, &fbits, sizeof f);
    values.push_back(f);                                                         // any float
    values.push_back(random.uniform(-1000, 1000));                               // everyday sizes
  }
  int compared = 0;
  for (const double value : values) {
    if (!std::isfinite(value)) continue;  // "NaN" and "infinity" are its own words
    INFO("value bits " << std::hexfloat << value);
    REQUIRE(describe_number(value) == printf_g6(value));
    ++compared;
  }
  CHECK(compared > 55000);
  CHECK(describe_number(std::nan("")) == "NaN");
  CHECK(describe_number(-std::numeric_limits<double>::infinity()) == "-infinity");
}
