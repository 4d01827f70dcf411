// Builds the Embind modules (the page's and the training module, each SIMD128 and scalar)
// into web/generated/.
import { bootstrap } from './lib/bootstrap.mjs';
import { WASM_MODULE_TARGETS, cmakeBuild } from './lib/cmake.mjs';
import { step } from './lib/run.mjs';

bootstrap('build');
step('build the wasm modules', () =>
  cmakeBuild('wasm', WASM_MODULE_TARGETS));
