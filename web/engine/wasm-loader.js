// Instantiates an Emscripten module (MODULARIZE + EXPORT_ES6) from a wasm source we choose,
// instead of the file name the Emscripten glue computes for itself. Two reasons:
//
//  * Bundlers. The glue asks for `new URL('<name>.wasm', import.meta.url)`. In the page's
//    own bundle a bundler rewrites that to the renamed asset, but a worker bundled a second
//    time by an author's Vite still asks for the first build's name, which no longer
//    exists. So the PAGE resolves each wasm URL with `new URL('<literal>', import.meta.url)`
//    (the one pattern Vite, Rollup's import-meta-url plugins, esbuild and plain static
//    hosting all understand), and hands the URL (a string) or the bytes to whoever loads
//    the module: the page itself, or a worker through postMessage.
//  * Errors an author can act on. We fetch and compile here, so a failure is known for what
//    it is (the page's Content-Security-Policy, a cross-origin fetch without
//    Access-Control-Allow-Origin, a missing file, an HTML page served instead of the wasm)
//    and reported as an EngineLoadError whose message names the fix, not as Emscripten's
//    "Aborted(CompileError ...). Build with -s ASSERTIONS=1".
//
// Usage (from a worker too): `await instantiateModule(factory, source)`, where `factory` is
// the glue's default export and `source` a URL string or the .wasm bytes.

/** Thrown when a wasm module cannot be loaded; `reason` says why (see REASONS). */
export class EngineLoadError extends Error {
  /** reason: 'csp' | 'cors' | 'network' | 'not-found' | 'not-wasm' | 'unsupported' */
  constructor(message, reason, options) {
    super(message, options);
    this.name = 'EngineLoadError';
    this.reason = reason;
  }
}

/** Runs `factory` (an Emscripten module factory) with its wasm from `source`; resolves to the module. */
export async function instantiateModule(factory, source, moduleOptions = {}) {
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const options = {
    ...moduleOptions,
    // Emscripten calls this instead of fetching; we call `receive` once instantiated.
    instantiateWasm(imports, receive) {
      instantiate(source, imports).then(({ instance, module }) => receive(instance, module), fail);
      return {};
    },
  };
  // Without a wasm instance the factory's promise never settles: the race ends the wait.
  return Promise.race([factory(options), failed]);
}

async function instantiate(source, imports) {
  if (typeof source !== 'string') return compile(() => WebAssembly.instantiate(source, imports), 'the given bytes');
  let response;
  try {
    response = await fetch(source, { credentials: 'same-origin' });
  } catch (error) {
    throw fetchFailure(source, error);
  }
  if (!response.ok) {
    throw new EngineLoadError(`The attention core could not be loaded: the server answered ${response.status} for ${source}. `
      + 'Copy the whole built folder (dist/, with its assets/ folder) to the host, unchanged.', 'not-found');
  }
  // Streaming needs the right MIME type; a host that sends another one still works, only slower.
  if ((response.headers.get('Content-Type') ?? '').startsWith('application/wasm')) {
    return compile(() => WebAssembly.instantiateStreaming(response, imports), source);
  }
  const bytes = await response.arrayBuffer();
  return compile(() => WebAssembly.instantiate(bytes, imports), source, bytes);
}

async function compile(run, where, bytes) {
  try {
    return await run();
  } catch (error) {
    throw compileFailure(error, where, bytes);
  }
}

function fetchFailure(url, error) {
  const protocol = globalThis.location?.protocol;
  if (protocol === 'file:') {
    return new EngineLoadError('The attention core could not be loaded: a page opened from disk (file://) cannot fetch '
      + `${url}. Serve the folder with any local web server, or use the single-file embed (dist/single/).`, 'network', { cause: error });
  }
  if (globalThis.origin === 'null' && /^https?:$/.test(protocol)) {
    return new EngineLoadError('The attention core could not be loaded: this page runs in a sandboxed frame '
      + '(its origin is "null"), so its request for the wasm file is cross-origin, and the server did not allow it. '
      + `The host must send the header Access-Control-Allow-Origin: * for the widget files (${url}), `
      + 'or the iframe’s sandbox must include allow-same-origin.', 'cors', { cause: error });
  }
  return new EngineLoadError(`The attention core could not be loaded: fetching ${url} failed (${error.message}). `
    + 'Check that the file is on the host, that this page’s Content-Security-Policy allows fetching it (connect-src), '
    + 'and, when the widget files are on another origin, that their server sends Access-Control-Allow-Origin.',
  'network', { cause: error });
}

// Browsers word a CSP refusal differently: Chromium "violates the following Content
// Security policy directive", Firefox "blocked by CSP", Safari "Refused to create a
// WebAssembly object because 'unsafe-eval' or 'wasm-unsafe-eval' is not an allowed source".
const CSP_WORDS = /content.security.policy|\bCSP\b|unsafe-eval/i;
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

function compileFailure(error, where, bytes) {
  const text = String(error?.message ?? error);
  if (CSP_WORDS.test(text)) {
    return new EngineLoadError('The attention core could not start: this page’s Content-Security-Policy does not allow '
      + 'WebAssembly. Add \'wasm-unsafe-eval\' to its script-src, for example '
      + 'Content-Security-Policy: script-src \'self\' \'wasm-unsafe-eval\'.', 'csp', { cause: error });
  }
  const notWasm = bytes ? !WASM_MAGIC.every((b, i) => new Uint8Array(bytes.slice(0, 4))[i] === b) : /magic word/i.test(text);
  if (notWasm) {
    const start = bytes ? new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(16, bytes.byteLength)))
      .replace(/[^\x20-\x7e]/g, '?') : '';
    return new EngineLoadError(`The attention core could not be loaded: ${where} is not a wasm file (${start ? `it starts with “${start}”, ` : ''}`
      + 'often a web page the server sends for a missing file). '
      + 'Copy the whole built folder to the host unchanged; a bundler must copy the .wasm files it renames.',
    'not-wasm', { cause: error });
  }
  return new EngineLoadError(`The attention core could not run in this browser (${text}). `
    + 'It needs WebAssembly, which every current browser has.', 'unsupported', { cause: error });
}
