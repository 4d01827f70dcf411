// Native side of the training benchmark in `npm run bench`: the same core compiled by g++
// -O3 -march=native, training the lesson's demo configurations. Prints one JSON line per
// configuration:
//   {"task":..,"h":..,"steps_per_second":..,"timed_steps":..,"loss":..}
// Arguments: seed timed_steps task h [task h ...]   (task 0 = previous-token, 1 = back-and-first)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "mha/training.hpp"

namespace {

double now_ms() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || (argc - 3) % 2 != 0) {
    std::fprintf(stderr, "usage: bench_training_native seed timed_steps task h [task h ...]\n");
    return 2;
  }
  const unsigned seed = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  const int timed = std::atoi(argv[2]);
  for (int a = 3; a + 1 < argc; a += 2) {
    const mha::Task task = std::atoi(argv[a]) == 0 ? mha::Task::PreviousToken : mha::Task::BackAndFirst;
    mha::TrainingConfig config = mha::default_training_config(task);
    config.num_heads = std::atoi(argv[a + 1]);
    mha::Trainer trainer(config, seed);
    trainer.step(20);  // warm-up: caches, page faults, CPU frequency
    const double t0 = now_ms();
    const mha::LossResult r = trainer.step(timed);
    const double ms = now_ms() - t0;
    std::printf("{\"task\":\"%s\",\"h\":%d,\"steps_per_second\":%.3f,\"timed_steps\":%d,\"loss\":%.9g}\n",
                mha::task_name(task), config.num_heads, timed * 1000.0 / ms, timed, r.loss);
  }
  return 0;
}
