// Small helpers for the project's scripts: run a command with inherited output, time steps.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs a command in the project root, streaming its output; exits the process on failure. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    ...options,
    env: { ...process.env, ...options.env },
  });
  if (result.error) {
    console.error(`\n✗ could not run ${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`\n✗ failed (exit ${result.status ?? result.signal}): ${command} ${args.join(' ')}`);
    process.exit(result.status || 1);
  }
}

/** Runs fn as a named step and prints how long it took. */
export function step(name, fn) {
  const start = performance.now();
  console.log(`\n▶ ${name}`);
  const value = fn();
  console.log(`✓ ${name} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return value;
}

/** step() for an async fn: resolves to its value once it is done. */
export async function stepAsync(name, fn) {
  const start = performance.now();
  console.log(`\n▶ ${name}`);
  const value = await fn();
  console.log(`✓ ${name} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return value;
}
