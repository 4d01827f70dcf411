// The lesson page: registers the widgets (each loads the shared wasm core on first use)
// and says, in a learner's words, which build of the core runs.
import './widgets/all.js';
import { sharedEngine } from './engine/engine.js';
import { headColourStyles } from './widgets/shared/world.js';
import { addEmbedCode } from './widgets/shared/embed-code.js';

// The prose names heads in their colours (class head-chip head-<id>); the colours come from
// the world data, like the widgets' (a constructed sheet: no inline style under the CSP).
const headSheet = new CSSStyleSheet();
headSheet.replaceSync(headColourStyles(undefined, ':root'));
document.adoptedStyleSheets = [...document.adoptedStyleSheets, headSheet];

const status = document.getElementById('engine-status');
sharedEngine().then(
  (engine) => {
    const how = engine.target === 'wasmsimd'
      ? 'four numbers at a time (your processor’s vector instructions)'
      : 'one number at a time (this browser lacks vector instructions)';
    status.textContent = `Every number is computed live, in your browser, by a C++ attention core compiled to WebAssembly, ${how}.`;
    status.dataset.target = engine.target;
  },
  (error) => {
    status.textContent = `The attention core could not be loaded: ${error.message}`;
    status.classList.add('error');
  },
);

// Display math that is wider than a phone scrolls sideways inside its box; while it does, the
// box is a tab stop (arrow keys scroll it), so keyboard users can read all of it too.
const mathObserver = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const scrolls = target.scrollWidth > target.clientWidth + 1;
    if (scrolls === target.hasAttribute('tabindex')) continue;
    if (scrolls) {
      target.tabIndex = 0;
      target.setAttribute('role', 'group');
      target.setAttribute('aria-label', 'Formula (scrolls sideways)');
    } else {
      for (const name of ['tabindex', 'role', 'aria-label']) target.removeAttribute(name);
    }
  }
});
for (const box of document.querySelectorAll('.math-display')) mathObserver.observe(box);

// Course authors take a widget, as it is, to their own page: an Embed button at each
// widget's top right corner (widgets/shared/embed-code.js) gives the inline element and
// the iframe, ready to paste. The addresses point at this site's folder (where
// multiple-heads.js and embed.html are).
const siteUrl = new URL('./', location.href).href;
for (const widget of document.querySelectorAll('.lesson-widget')) addEmbedCode(widget, siteUrl);
