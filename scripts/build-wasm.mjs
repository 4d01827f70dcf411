// Builds the two Embind modules the page loads (SIMD128 and scalar) into web/generated/.
import { bootstrap } from './lib/bootstrap.mjs';
import { cmakeBuild } from './lib/cmake.mjs';
import { step } from './lib/run.mjs';

bootstrap('build');
step('build the wasm modules', () =>
  cmakeBuild('wasm', ['multiple_heads_simd', 'multiple_heads_scalar']));
