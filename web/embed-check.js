// embed.html's first script, a CLASSIC script on purpose (no type="module", no imports):
// it says why the frame is empty when its module scripts cannot load. A frame with
// sandbox="allow-scripts" has the opaque origin "null", so the browser fetches its module
// scripts (and the wasm) in CORS mode, and without Access-Control-Allow-Origin on the host
// nothing of the widget runs: the frame stayed blank. A classic script is fetched without
// CORS, so this one still runs, and it hears the module script's failed load (an "error"
// event on the script element, caught on the way down in the capture phase).
(() => {
  function explain(src) {
    const root = document.getElementById('embed-root');
    if (!root || root.querySelector('.embed-error')) return;
    const box = document.createElement('p');
    box.className = 'embed-error';
    box.setAttribute('role', 'alert');
    box.textContent = window.origin === 'null'
      ? 'This widget could not load its scripts. The frame is sandboxed (its origin is "null"), so its scripts '
        + 'and its wasm file are fetched cross-origin, and the server did not allow that: it must send the header '
        + 'Access-Control-Allow-Origin: * for the widget files (or the iframe’s sandbox must include allow-same-origin).'
      : `This widget could not load its script ${src}. Copy the whole built folder to the host unchanged, and `
        + 'check that the page’s Content-Security-Policy allows scripts from it (script-src).';
    // embed.css may have failed to load for the same reason: the look is set here (through
    // the CSSOM, which a strict style-src allows).
    Object.assign(box.style, {
      font: '600 1rem/1.4 system-ui, sans-serif', color: '#a8071a', padding: '0.75rem',
      border: '1px solid #a8071a', borderRadius: '8px', background: '#fff',
    });
    root.replaceChildren(box);
  }
  window.addEventListener('error', (event) => {
    const script = event.target;
    if (!(script instanceof HTMLScriptElement) || script.type !== 'module') return;
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => explain(script.src));
    else explain(script.src);
  }, true);
})();
