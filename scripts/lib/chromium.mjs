// How the tests and benchmarks launch Chromium: Debian's (playwright-core downloads no
// browser), headless, nothing fetched from the network, no GPU on these machines.
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
};
