// Builds the sanitizer fuzz driver (clang, ASan + UBSan; tests/fuzz/fuzz_core.cpp) in
// build/fuzz and runs it for a number of iterations.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { compilerCacheSettings } from './cmake.mjs';
import { ROOT, run } from './run.mjs';

const dir = path.join(ROOT, 'build/fuzz');

export function fuzzCore(iterations, seed = 20261129) {
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) {
    // -O2 with line tables only: a report's stack still names file and line; full debug
    // info made the build 48 s instead of 31 (two cores), the run the same 10 s.
    run('cmake', ['-S', ROOT, '-B', dir, '-DCMAKE_CXX_COMPILER=clang++', '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
      '-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG',
      '-DMHA_BUILD_FUZZ=ON', '-DMHA_BUILD_TESTS=OFF', ...compilerCacheSettings()], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  run('cmake', ['--build', dir, '--target', 'fuzz_core', '--parallel', '2'], { stdio: ['ignore', 'ignore', 'inherit'] });
  run(path.join(dir, 'fuzz_core'), [String(iterations), String(seed)], {
    env: { ASAN_OPTIONS: 'abort_on_error=1:detect_leaks=1', UBSAN_OPTIONS: 'print_stacktrace=1' },
  });
}
