// The core's limits in one place: the largest shapes it accepts and the most work one call
// may do. Every check that enforces one names it, so that a refused call says which limit
// it met.
#pragma once

#include <cstdint>

namespace mha {

// L, tokens per sequence, and d_model, the model width.
inline constexpr int kMaxSeqLen = 4096;
inline constexpr int kMaxModelWidth = 4096;

// Work budget. The shapes above allow calls that would run for minutes (a forward pass at
// L = d_model = h = 4096 took over 200 s, the singular values at d_model = 1024 over 100 s),
// and the page runs the core on its main thread, so a call whose planned work exceeds its
// budget is refused before any work is done.
//
// One forward() may do at most this many multiply-adds, counted as forward_multiply_adds()
// plans them (about 2 s at the 2e9 multiply-adds per second measured in Chromium's SIMD
// build). The lesson's largest pass, L = 256, d_model = 512, is 3.4e8; the benchmark's,
// L = d_model = 512, 9.4e8.
inline constexpr std::uint64_t kMaxForwardMultiplyAdds = 4'000'000'000;
// One similarity_singular_values() may do at most this many multiply-adds, estimated by
// spectrum_multiply_adds(). Jacobi sweeps in double run far below the forward pass's rate,
// so the budget is smaller: it admits d_model up to about 360 (the widget shows at most 64).
inline constexpr std::uint64_t kMaxSpectrumMultiplyAdds = 1'000'000'000;
// One training call (Trainer::step(n), evaluate(), importance()) may do at most this many
// multiply-adds, as training_multiply_adds() plans them (a forward and backward pass of every
// sequence it runs). The lesson's run takes 25 steps per call at about 4.5e7; a whole demo
// run in one call, 1500 steps, is 2.7e9. Without it, step(100000) at the defaults ran on for
// minutes (1.8e11) and a large config's single step for longer still.
inline constexpr std::uint64_t kMaxTrainingMultiplyAdds = 4'000'000'000;

}  // namespace mha
