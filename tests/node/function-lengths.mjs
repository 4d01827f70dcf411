// Measures how long functions are, for the house rule "no function in web/ or core/ over
// 80 lines" (a function is read in one sitting). A function's length runs from the line of
// its first character to the line of its last, comments and blank lines included.
//   JavaScript: parsed with oxc (rolldown's parseAst, already installed for Vite), every
//     function, arrow and method, nested ones counted on their own as well.
//   C++: a brace matcher over the source with comments, strings and character literals
//     blanked out; a `{` whose text before it ends like a signature (`) const`, `)
//     noexcept`, `) -> T`, a constructor's initialiser list) and is not a control statement
//     opens a function. Lambdas count as part of the function they are written in.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';

/** Every file under `dir` whose name matches `pattern`, sorted. */
export function filesUnder(dir, pattern) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) found.push(...filesUnder(file, pattern));
    else if (pattern.test(name)) found.push(file);
  }
  return found;
}

const lineStarts = (source) => {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return starts;
};
const lineAt = (starts, offset) => {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
  }
  return lo + 1;
};

const FUNCTION_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** [{ name, line, lines }] for every function in a JavaScript module's source. */
export function javascriptFunctions(source, fileName = 'module.js') {
  const starts = lineStarts(source);
  const ast = parseAst(source, { sourceType: 'module' }, fileName);
  const found = [];
  const visit = (node, name) => {
    if (Array.isArray(node)) { for (const child of node) visit(child, name); return; }
    if (!node || typeof node !== 'object') return;
    let here = name;
    if ((node.type === 'MethodDefinition' || node.type === 'Property' || node.type === 'PropertyDefinition') && node.key) {
      here = node.key.name ?? node.key.value ?? name;
    } else if (node.type === 'VariableDeclarator' && node.id?.name) here = node.id.name;
    if (FUNCTION_NODES.has(node.type)) {
      const line = lineAt(starts, node.start);
      found.push({ name: node.id?.name ?? here, line, lines: lineAt(starts, node.end) - line + 1 });
    }
    for (const key of Object.keys(node)) if (key !== 'parent') visit(node[key], here);
  };
  visit(ast, '(anonymous)');
  return found;
}

/** The source with comments, string and character literals blanked (newlines kept). */
function blankCppLiterals(source) {
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  return source.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, blank);
}

const CONTROL = /\b(?:if|for|while|switch|catch)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*$/;
const SIGNATURE_END = /\)\s*(?:const|noexcept|override|final|mutable|->\s*[\w:<>,&*\s]+)*\s*$/;
const INITIALISER_END = /\)\s*:\s*[\w:]+\s*[({](?:[\s\S]*)[)}]\s*$/;
const NAME_BEFORE_PARAMETERS = /([~\w:]+)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)[^()]*$/;

// A constructor's signature without its initialiser list (`X::X(int n) : n_(n)` → `X::X(int n)`).
function withoutInitialisers(signature) {
  const colons = [...signature.matchAll(/\)\s*:(?!:)/g)];
  return colons.length && INITIALISER_END.test(signature) ? signature.slice(0, colons.at(-1).index + 1) : signature;
}

/** [{ name, line, lines }] for every outermost function body in a C++ source. */
export function cppFunctions(source) {
  const text = blankCppLiterals(source);
  const found = [];
  const open = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '{') {
      const raw = text.slice(Math.max(0, i - 400), i);
      const before = raw.replace(/\s+/g, ' ');
      const inFunction = open.some((b) => b.isFunction);
      const isFunction = !inFunction && !CONTROL.test(before) && (SIGNATURE_END.test(before) || INITIALISER_END.test(before));
      const name = isFunction ? (withoutInitialisers(before).match(NAME_BEFORE_PARAMETERS)?.[1] ?? '(function)') : null;
      // The signature may start lines above the brace: count from the line of its name.
      const signatureLines = isFunction ? (raw.slice(raw.lastIndexOf(name)).match(/\n/g)?.length ?? 0) : 0;
      open.push({ isFunction, name, line: line - signatureLines });
    } else if (c === '}') {
      const block = open.pop();
      if (block?.isFunction) found.push({ name: block.name, line: block.line, lines: line - block.line + 1 });
    }
  }
  return found;
}

/** Functions longer than `limit` lines in the given files: [{ file, name, line, lines }]. */
export function longFunctions(files, limit, root) {
  const long = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const functions = /\.(?:m?js)$/.test(file) ? javascriptFunctions(source, file) : cppFunctions(source);
    for (const f of functions) if (f.lines > limit) long.push({ file: path.relative(root, file), ...f });
  }
  return long;
}
