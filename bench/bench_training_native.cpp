// Native side of the training benchmark in `npm run bench`: the same core compiled by g++
// -O3 -march=native, training the lesson's demo configurations. Prints one JSON line per
// configuration:
//   {"task":..,"h":..,"steps_per_second":..,"timed_steps":..,"loss":..}
// Arguments: seed timed_steps task h [task h ...]   (task 0 = previous-token, 1 = back-and-first)
//
// Time is this process's CPU time (CLOCK_PROCESS_CPUTIME_ID), not wall time: the machine
// is shared, and wall time measures the other processes too. The median of 5 chunks of
// timed_steps / 5 steps is reported.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mha/training.hpp"

namespace {

double cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
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
    const int chunk = std::max(1, timed / 5);
    std::vector<double> ms;
    mha::LossResult r;
    for (int c = 0; c < 5; ++c) {
      const double t0 = cpu_ms();
      r = trainer.step(chunk);
      ms.push_back(cpu_ms() - t0);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("{\"task\":\"%s\",\"h\":%d,\"steps_per_second\":%.3f,\"timed_steps\":%d,\"loss\":%.9g}\n",
                mha::task_name(task), config.num_heads, chunk * 1000.0 / ms[2], 5 * chunk, r.loss);
  }
  return 0;
}
