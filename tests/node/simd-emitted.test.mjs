// The SIMD build really contains SIMD128 arithmetic, and the scalar build contains none:
// checked on the disassembly (wasm2wat, from Debian's wabt).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { wasmPath } from './load-engine.mjs';

function countInstructions(build) {
  const text = execFileSync('wasm2wat', ['--enable-all', fileURLToPath(wasmPath(build))], {
    maxBuffer: 256 * 1024 * 1024, encoding: 'utf8',
  });
  const count = (op) => (text.match(new RegExp(`\\b${op.replace('.', '\\.')}\\b`, 'g')) ?? []).length;
  return { mul: count('f32x4.mul'), add: count('f32x4.add'), load: count('v128.load'), max: count('f32x4.max') + count('f32x4.pmax') };
}

test('the SIMD build emits f32x4 arithmetic; the scalar build does not', () => {
  const simd = countInstructions('simd');
  const scalar = countInstructions('scalar');
  console.log('SIMD build:', simd, 'scalar build:', scalar);
  assert.ok(simd.mul >= 10 && simd.add >= 10 && simd.load >= 10, JSON.stringify(simd));
  assert.ok(simd.max >= 1, 'softmax takes its row maximum with f32x4.max or pmax');
  assert.deepEqual(scalar, { mul: 0, add: 0, load: 0, max: 0 });
});

test('the training module too: its SIMD build emits f32x4 arithmetic, its scalar build none', () => {
  const simd = countInstructions('train_simd');
  const scalar = countInstructions('train_scalar');
  console.log('training SIMD build:', simd, 'training scalar build:', scalar);
  assert.ok(simd.mul >= 10 && simd.add >= 10 && simd.load >= 10, JSON.stringify(simd));
  assert.deepEqual(scalar, { mul: 0, add: 0, load: 0, max: 0 });
});

test('Eigen itself does not vectorise for wasm; the kernels in use are the SIMD128 ones', async () => {
  const { loadTestEngine } = await import('./load-engine.mjs');
  const engine = await loadTestEngine('simd');
  console.log(`Eigen::SimdInstructionSetsInUse() in wasm: "${engine.eigenSimdInstructionSets}"; kernels: ${engine.target}`);
  assert.equal(engine.eigenSimdInstructionSets, 'None');
  assert.equal(engine.target, 'wasmsimd');
});
