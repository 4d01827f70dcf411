// Installs what a new machine is missing before building or testing:
//   * Debian packages (apt-get, when running as root; otherwise print the command and stop);
//   * npm packages (`npm ci` from package-lock.json, when node_modules is absent).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, run } from './run.mjs';

// Each Debian package with a file that proves it is installed.
const DEBIAN_PACKAGES = {
  build: [
    ['cmake', '/usr/bin/cmake'],
    ['g++', '/usr/bin/g++'],
    ['emscripten', '/usr/bin/em++'],
    ['libeigen3-dev', '/usr/include/eigen3/Eigen/Dense'],
    ['catch2', '/usr/include/catch2/catch.hpp'],
  ],
  // The browsers: the full one (the benchmark's page measurements, npm start's learner) and
  // the one the tests drive (scripts/lib/chromium.mjs): the same engine at half the CPU.
  browser: [
    ['chromium', '/usr/bin/chromium'],
    ['chromium-headless-shell', '/usr/bin/chromium-headless-shell'],
    // A math font for the lesson's formulas (web/styles.css names it after the browser's own):
    // Chromium on Debian maps the generic math family to a font Debian does not install.
    ['fonts-dejavu-extra', '/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf'],
  ],
  test: [
    ['wabt', '/usr/bin/wasm2wat'],
    ['clang', '/usr/bin/clang++'],
    ['libclang-rt-14-dev', '/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.a'],
  ],
  // Installed when root, else only suggested: the builds work without it. ccache keeps each
  // compiled file (in ~/.cache/ccache, outside the checkout), so a fresh clone of unchanged
  // sources compiles almost nothing (scripts/lib/cmake.mjs).
  helpful: [
    ['ccache', '/usr/bin/ccache'],
  ],
};

/**
 * @param {'build' | 'bench' | 'test'} purpose `bench` also needs Chromium (the page
 *   measurements); `test` Chromium, wabt and clang's sanitizers.
 * @param {{ npm?: boolean }} options `npm: false` leaves the npm packages to the caller
 *   (scripts/test.mjs runs `npm ci` while the native build runs: see npmInstallCommand).
 */
export function bootstrap(purpose, { npm = true } = {}) {
  const wanted = [
    ...DEBIAN_PACKAGES.build,
    ...(purpose === 'build' ? [] : DEBIAN_PACKAGES.browser),
    ...(purpose === 'test' ? DEBIAN_PACKAGES.test : []),
  ];
  const absent = (list) => list.filter(([, file]) => !existsSync(file)).map(([name]) => name);
  const root = process.getuid?.() === 0;
  const helpful = absent(DEBIAN_PACKAGES.helpful);
  if (!root && helpful.length > 0) {
    console.log(`Note: ${helpful.join(', ')} would make rebuilds faster (sudo apt-get install ${helpful.join(' ')}).`);
  }
  const missing = [...absent(wanted), ...(root ? helpful : [])];
  if (missing.length > 0) {
    const command = `apt-get update && apt-get install -y ${missing.join(' ')}`;
    if (!root) {
      console.error(`Missing Debian packages: ${missing.join(', ')}.\n` +
        `Install them as root, then run this again:\n\n  sudo sh -c '${command}'\n`);
      process.exit(1);
    }
    console.log(`Installing Debian packages: ${missing.join(', ')}`);
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    run('apt-get', ['update', '-qq'], { env });
    run('apt-get', ['install', '-y', '-qq', ...missing], { env });
  }
  const install = npmInstallCommand();
  if (npm && install) {
    console.log('Installing npm packages (npm ci)');
    run(install[0], install.slice(1));
  }
}

/** The command that installs the npm packages from package-lock.json, or null when they are there. */
export function npmInstallCommand() {
  return existsSync(path.join(ROOT, 'node_modules')) ? null : ['npm', 'ci', '--no-audit', '--no-fund'];
}
