// How the tests and benchmarks launch Chromium: Debian's (playwright-core downloads no
// browser), headless, nothing fetched from the network, no GPU on these machines.
import { existsSync } from 'node:fs';

const FULL_CHROMIUM = '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The full browser in its headless mode: what the benchmarks measure (a reader's Chromium
 * renders the page this way). $CHROMIUM_PATH sets another executable.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? FULL_CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
};

/**
 * For the tests: Debian's chromium-headless-shell when it is installed (the same Blink and V8
 * as the full browser, built without the browser's own interface). The full browser in
 * headless mode still runs its interface (WebUI renderers for the window's chrome) and
 * composites each frame in a GPU process with a software GL; the shell does neither. Measured
 * as CPU seconds of the whole process tree (one file run alone, then the whole suite), the
 * shell costs about half: see docs/TEST-SUITE-SPEED.md. Falls back to the full
 * browser when the shell is not installed; $CHROMIUM_PATH overrides both.
 */
export const TEST_CHROMIUM_LAUNCH = {
  ...CHROMIUM_LAUNCH,
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM),
};
