// Writes lessons/multiple-heads/worlds/trained.json, the world whose heads the core trains:
// builds and runs the native tool core/tools/train_world.cpp (the task: core/tools/
// world_task.hpp), then turns its output (trained W_Q and W_K, the sentence's features, the
// held-out measures) into a world file in the lesson's format.
//
//   node scripts/train-world.mjs           train and write the file
//   node scripts/train-world.mjs --check   train and fail if the committed file differs
//
// The tool is deterministic (a fixed seed, double precision, the core's reference kernels),
// so the file is a function of the sources: tests/node/trained-world.test.mjs checks that the
// committed file is what this script writes.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIRS, compilerCacheSettings } from './lib/cmake.mjs';
import { ROOT, run } from './lib/run.mjs';
import { composeWorld } from './lib/trained-world.mjs';

export const TRAINED_WORLD_PATH = path.join(ROOT, 'lessons/multiple-heads/worlds/trained.json');
export const TRAINER_PATH = path.join(BUILD_DIRS.native, 'train_world');

/** Configures build/native (so a new checkout or a changed CMakeLists.txt has the target) and builds the tool. */
export function buildTrainer() {
  run('cmake', ['-S', ROOT, '-B', BUILD_DIRS.native, '-DCMAKE_BUILD_TYPE=Release', ...compilerCacheSettings()], { stdio: ['ignore', 'ignore', 'inherit'] });
  run('cmake', ['--build', BUILD_DIRS.native, '--parallel', '2', '--target', 'train_world']);
}

/** The tool's output, parsed. Throws Error if the tool is missing or fails. */
export function runTrainer(trainer = TRAINER_PATH) {
  if (!existsSync(trainer)) throw new Error(`${trainer} is missing: build it with node scripts/train-world.mjs (or npm test's native build)`);
  const result = spawnSync(trainer, [], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (result.status !== 0) throw new Error(`train_world failed (exit ${result.status ?? result.signal}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

// One line: JSON with a space after every comma and colon between items.
function inline(value) {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(', ')}}`;
  return JSON.stringify(value);
}

/** The world file's text: JSON, two-space indents, arrays of numbers or words and short objects on one line. */
export function formatWorld(value, indent = '') {
  const inner = `${indent}  `;
  const line = inline(value);
  const simpleArray = Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object');
  if (value === null || typeof value !== 'object' || simpleArray || (line.length <= 100 && !/": \{/.test(line))) return line;
  const entries = Array.isArray(value)
    ? value.map((v) => `${inner}${formatWorld(v, inner)}`)
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatWorld(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${entries.join(',\n')}\n${indent}${close}`;
}

/** The world file's text as this script writes it now, from the tool's output. */
export function trainedWorldText(output = runTrainer()) {
  return `${formatWorld(composeWorld(output))}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildTrainer();
  const started = performance.now();
  const output = runTrainer();
  const seconds = (performance.now() - started) / 1000;
  const text = trainedWorldText(output);
  const rel = path.relative(ROOT, TRAINED_WORLD_PATH);
  if (process.argv.includes('--check')) {
    const same = existsSync(TRAINED_WORLD_PATH) && readFileSync(TRAINED_WORLD_PATH, 'utf8') === text;
    console.log(same ? `${rel} is what the trainer writes.` : `${rel} differs from what the trainer writes: run node scripts/train-world.mjs`);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(TRAINED_WORLD_PATH, text);
  const rounded = output.rounded.heads.map((h) => `${h.job} ${(100 * h.hitRate).toFixed(1)}%`).join(', ');
  console.log(`Trained in ${seconds.toFixed(1)} s (seed ${output.config.seed}, ${output.config.steps} steps); held-out hit rates ${rounded}. Wrote ${rel}.`);
}
