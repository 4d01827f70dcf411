// The peer an author would otherwise pick: onnxruntime-web (wasm backend, SIMD build, one
// thread). The multi-head attention graph is written in memory with ONNX's own message
// definitions (onnx-proto), with W_Q, W_K, W_V and W_O as initialisers, so each run feeds
// only X, as the core's forward does:
//
//   Q = X W_Q  -> Reshape [L, h, d_k] -> Transpose [h, L, d_k]
//   K = X W_K  -> Reshape [L, h, d_k] -> Transpose [h, d_k, L]
//   V = X W_V  -> Reshape [L, h, d_k] -> Transpose [h, L, d_k]
//   A = Softmax(Q K * (1 / sqrt(d_k)), axis -1)              [h, L, L]
//   Out = Reshape(Transpose(A V) [L, h, d_k], [L, d_model]) W_O
//
// See /work/shared/notes/onnxruntime-web-in-node.md for how it runs in Node 20.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { onnx } = require('onnx-proto');
const ort = require('onnxruntime-web');

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

function floatTensor(name, dims, values) {
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, floatData: Array.from(values) });
}

function int64Tensor(name, values) {
  return onnx.TensorProto.create({ name, dims: [values.length], dataType: INT64, int64Data: values });
}

function node(opType, inputs, outputs, attributes = []) {
  return onnx.NodeProto.create({ opType, input: inputs, output: outputs, name: outputs[0], attribute: attributes });
}

function intsAttribute(name, ints) {
  return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints });
}

function valueInfo(name, dims) {
  return onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((dimValue) => ({ dimValue })) } } },
  });
}

/** The ONNX model bytes of one multi-head attention forward pass with these weights. */
export function attentionModelBytes({ seqLen: L, dModel: d, numHeads: h }, weights) {
  const dK = d / h;
  const nodes = [
    node('MatMul', ['X', 'Wq'], ['Q']),
    node('MatMul', ['X', 'Wk'], ['K']),
    node('MatMul', ['X', 'Wv'], ['V']),
    node('Reshape', ['Q', 'split_shape'], ['Q3']),
    node('Reshape', ['K', 'split_shape'], ['K3']),
    node('Reshape', ['V', 'split_shape'], ['V3']),
    node('Transpose', ['Q3'], ['Qh'], [intsAttribute('perm', [1, 0, 2])]),
    node('Transpose', ['K3'], ['KhT'], [intsAttribute('perm', [1, 2, 0])]),
    node('Transpose', ['V3'], ['Vh'], [intsAttribute('perm', [1, 0, 2])]),
    node('MatMul', ['Qh', 'KhT'], ['S']),
    node('Mul', ['S', 'scale'], ['Ss']),
    node('Softmax', ['Ss'], ['A'], [onnx.AttributeProto.create({ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 })]),
    node('MatMul', ['A', 'Vh'], ['Oh']),
    node('Transpose', ['Oh'], ['O3'], [intsAttribute('perm', [1, 0, 2])]),
    node('Reshape', ['O3', 'concat_shape'], ['Concat']),
    node('MatMul', ['Concat', 'Wo'], ['Out']),
  ];
  const graph = onnx.GraphProto.create({
    name: 'multi_head_attention',
    node: nodes,
    initializer: [
      floatTensor('Wq', [d, d], weights.wq),
      floatTensor('Wk', [d, d], weights.wk),
      floatTensor('Wv', [d, d], weights.wv),
      floatTensor('Wo', [d, d], weights.wo),
      floatTensor('scale', [], [1 / Math.sqrt(dK)]),
      int64Tensor('split_shape', [L, h, dK]),
      int64Tensor('concat_shape', [L, d]),
    ],
    input: [valueInfo('X', [L, d])],
    output: [valueInfo('Out', [L, d])],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'multiple-heads bench',
    opsetImport: [{ domain: '', version: 17 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

let configured = false;

/** The onnxruntime-web version in use (e.g. "1.30.0"). */
export function onnxRuntimeVersion() {
  return ort.env.versions?.web ?? 'unknown';
}

/**
 * An onnxruntime-web session for this shape and these weights. run(x) feeds X (a
 * Float32Array of L x d_model), awaits the output, reads it back (a copy) and disposes the
 * output tensor.
 */
export async function createOnnxPeer(config, weights) {
  if (!configured) {
    ort.env.wasm.numThreads = 1; // the single-thread SIMD build, ort-wasm-simd-threaded.wasm
    ort.env.wasm.simd = true;
    ort.env.logLevel = 'error';
    configured = true;
  }
  const session = await ort.InferenceSession.create(attentionModelBytes(config, weights), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
  const dims = [config.seqLen, config.dModel];
  return {
    async run(x) {
      const result = await session.run({ X: new ort.Tensor('float32', x, dims) });
      const out = result.Out.data.slice();
      result.Out.dispose();
      return out;
    },
    release: () => session.release(),
  };
}
