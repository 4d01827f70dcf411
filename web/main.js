// The first page: one live computation through the core. The learner types attention
// weights for the token "said"; the core checks them, supplies them to head 0 and runs the
// forward pass; the page shows the head's output row for "said".
import { sharedEngine } from './engine/engine.js';

const TOKENS = ['researcher', 'said', 'it', 'wrong'];
const QUERY = 1; // "said"
// Each token's embedding is a distinct direction, and W_V = I, so the values are the
// embeddings themselves and the head's output shows how much of each survives.
const D_MODEL = 4;

const fields = document.getElementById('weight-fields');
const errorBox = document.getElementById('weights-error');
const outputBox = document.getElementById('head-output');
const status = document.getElementById('engine-status');

function identity(n) {
  const m = new Float32Array(n * n);
  for (let i = 0; i < n; i++) m[i * n + i] = 1;
  return m;
}

const engine = await sharedEngine();
const model = engine.createModel({ seqLen: TOKENS.length, dModel: D_MODEL, numHeads: 1 });
model.setProjection('value', identity(D_MODEL));
model.setOutputProjection(identity(D_MODEL));
const x = identity(D_MODEL); // token t is the unit vector e_t

// Start with every token attending uniformly; row QUERY is what the learner edits.
const weights = new Float32Array(TOKENS.length * TOKENS.length).fill(1 / TOKENS.length);
const START = [0.45, 0.15, 0.4, 0]; // as typed, not as float32 rounds them
weights.set(START, QUERY * TOKENS.length);

const inputs = TOKENS.map((token, s) => {
  const label = document.createElement('label');
  label.textContent = `on “${token}”`;
  const input = document.createElement('input');
  input.type = 'text';
  input.inputMode = 'decimal';
  input.value = String(START[s]);
  input.dataset.token = token;
  input.setAttribute('aria-describedby', 'weights-error');
  label.append(input);
  fields.append(label);
  return input;
});

function render() {
  const result = model.forward(x);
  const row = result.heads[0].output.row(QUERY);
  outputBox.textContent = TOKENS.map((t, i) => `${t.padEnd(11)} ${row[i].toFixed(3)}`).join('\n');
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

function onEdit() {
  const proposed = weights.slice();
  for (const [s, input] of inputs.entries()) {
    const text = input.value.trim();
    const value = text === '' ? NaN : Number(text);
    input.setAttribute('aria-invalid', String(!Number.isFinite(value)));
    if (!Number.isFinite(value)) {
      showError(`The weight on “${TOKENS[s]}” must be a number; the output still shows the last valid weights.`);
      return;
    }
    proposed[QUERY * TOKENS.length + s] = value;
  }
  try {
    model.setAttentionOverride(0, proposed);
  } catch (error) {
    showError(`${error.message}. The output still shows the last valid weights.`);
    return;
  }
  weights.set(proposed);
  showError('');
  render();
}

fields.addEventListener('input', onEdit);
model.setAttentionOverride(0, weights);
render();
status.textContent = `Computed by the C++ core in WebAssembly (${engine.target} kernels).`;
