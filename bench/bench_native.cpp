// Native side of `npm run bench`: the same core, compiled by g++ -O3 -march=native, timed
// on the same seeded inputs as the wasm builds. Prints one JSON line per configuration:
//   {"L":..,"d":..,"h":..,"median_ms":..,"runs":..,"checksum":..,"multiply_adds":..}
// The checksum (sum of the output entries, in double) lets the runner check that every
// implementation computed the same thing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mha/attention.hpp"
#include "mha/kernels.hpp"
#include "mha/lesson_math.hpp"

namespace {

double now_ms() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  // Arguments: seed min_seconds min_runs L d h [L d h ...]
  if (argc < 7 || (argc - 4) % 3 != 0) {
    std::fprintf(stderr, "usage: bench_native seed min_seconds min_runs L d h [L d h ...]\n");
    return 2;
  }
  const unsigned seed = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  const double min_ms = std::atof(argv[2]) * 1000;
  const int min_runs = std::atoi(argv[3]);
  for (int a = 4; a + 2 < argc; a += 3) {
    const int L = std::atoi(argv[a]), d = std::atoi(argv[a + 1]), h = std::atoi(argv[a + 2]);
    mha::MultiHeadAttention model({L, d, h, false});
    model.randomize(seed);
    const std::vector<float> x = mha::seeded_matrix(L, d, seed + 1, 1.0f);
    const mha::ForwardOptions options{false};
    // Warm-up: caches, page faults, CPU frequency.
    mha::ForwardTrace trace = model.forward(x, options);
    std::vector<double> times;
    const double start = now_ms();
    while (static_cast<int>(times.size()) < min_runs || now_ms() - start < min_ms) {
      const double t0 = now_ms();
      trace = model.forward(x, options);
      times.push_back(now_ms() - t0);
    }
    std::sort(times.begin(), times.end());
    double checksum = 0;
    for (Eigen::Index i = 0; i < trace.output.size(); ++i) checksum += trace.output.data()[i];
    std::printf(
        "{\"L\":%d,\"d\":%d,\"h\":%d,\"median_ms\":%.6f,\"runs\":%zu,\"checksum\":%.9g,"
        "\"multiply_adds\":%llu,\"kernels\":\"%s\"}\n",
        L, d, h, times[times.size() / 2], times.size(), checksum,
        static_cast<unsigned long long>(trace.counts.total_multiply_adds()),
        mha::active_kernels().target);
  }
  return 0;
}
