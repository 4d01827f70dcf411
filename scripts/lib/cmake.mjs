// Configures and builds the CMake project natively (build/native) or with Emscripten
// (build/wasm). Configuration runs once; later builds are incremental.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, run } from './run.mjs';

// Emscripten 3.1.6 (Debian) needs Debian's node modules (acorn) for -O1+ links.
const EMSCRIPTEN_ENV = { NODE_PATH: '/usr/share/nodejs' };

export const BUILD_DIRS = {
  native: path.join(ROOT, 'build/native'),
  wasm: path.join(ROOT, 'build/wasm'),
};

// The Embind modules written to web/generated/: the page's (forward pass and lesson
// mathematics) and the training module the <mha-training> widget loads on demand, each
// as SIMD128 and scalar builds.
export const WASM_MODULE_TARGETS = [
  'multiple_heads_simd', 'multiple_heads_scalar', 'multiple_heads_train_simd', 'multiple_heads_train_scalar',
];

const CCACHE = '/usr/bin/ccache';

/**
 * CMake settings that compile through ccache when it is installed (the bootstrap installs it
 * when root): each object is kept by the hash of its compiler, flags and preprocessed
 * source, so a fresh clone of sources already compiled on this machine (CI's every run
 * after the first) compiles almost nothing. em++ included: one wasm module, configure and
 * link included, 39.5 s in one clone, 8.5 s in the next. Links are not cached. Given at
 * configuration (cmakeBuild: a new build directory; train-world.mjs: each time), so a build
 * directory configured without them compiles directly until it is configured again.
 */
export function compilerCacheSettings() {
  if (!existsSync(CCACHE)) return [];
  // Paths under the checkout are hashed relative to it (base_dir), and the working directory
  // is left out (the sanitizer build's line tables would put it in), so a clone in another
  // directory finds the same entries: with absolute paths a second clone hit 2 of 44.
  const launcher = ['/usr/bin/env', `CCACHE_BASEDIR=${ROOT}`, 'CCACHE_NOHASHDIR=true', CCACHE].join(';');
  return [`-DCMAKE_CXX_COMPILER_LAUNCHER=${launcher}`, `-DCMAKE_C_COMPILER_LAUNCHER=${launcher}`];
}

export function cmakeBuild(flavour, targets) {
  const dir = BUILD_DIRS[flavour];
  const env = flavour === 'wasm' ? EMSCRIPTEN_ENV : {};
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) {
    const configure = ['cmake', '-S', ROOT, '-B', dir, '-DCMAKE_BUILD_TYPE=Release', ...compilerCacheSettings()];
    if (flavour === 'wasm') {
      // emcmake's default test emulator passes a flag Node 20 rejects.
      run('emcmake', [...configure, '-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node'], { env });
    } else {
      run(configure[0], configure.slice(1), { env });
    }
  }
  const targetArgs = targets ? targets.flatMap((t) => ['--target', t]) : [];
  run('cmake', ['--build', dir, '--parallel', '2', ...targetArgs], { env });
}

export function ctest(flavour) {
  run('ctest', ['--test-dir', BUILD_DIRS[flavour], '--output-on-failure', '--verbose'], {
    env: flavour === 'wasm' ? EMSCRIPTEN_ENV : {},
  });
}
