// The lesson page: registers the widgets (each loads the shared wasm core on first use)
// and reports which kernels run.
import './widgets/all.js';
import { sharedEngine } from './engine/engine.js';

const status = document.getElementById('engine-status');
sharedEngine().then(
  (engine) => {
    status.textContent = `Every number in the widgets is computed live by a C++ attention core compiled to WebAssembly (${engine.target} kernels).`;
    status.dataset.target = engine.target;
  },
  (error) => {
    status.textContent = `The attention core could not be loaded: ${error.message}`;
    status.classList.add('error');
  },
);
