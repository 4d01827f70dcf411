// A widget page inside a frame (embed.html, and each single file, dist/single/<name>.html)
// tells the page around it how tall it is, so that the frame can take that height: the
// parent cannot read a cross-origin (or sandboxed) frame's size. The message is
// { type: 'multiple-heads:height', widget: <name>, height: <CSS px> }; embed-resizer.js, or
// the few lines docs/EMBEDDING.md gives for a single file, apply it to the frame that sent it.
//
// A ResizeObserver alone is not enough: Chromium does not run rendering updates, and so no
// ResizeObserver callbacks, in a cross-origin frame that is off-screen, and a page of
// several frames kept those below the fold at their default 150 px until scrolled to. So
// the height is also measured (a forced layout works in a throttled frame) when the page
// has loaded, when the widget is ready or changes, when fonts settle, and when the parent
// asks ({ type: 'multiple-heads:report-height' }, which embed-resizer.js sends).

/** Reports the page's height to the parent page now and whenever it may have changed. */
export function reportFrameHeight(widget, name) {
  if (window.parent === window) return;
  let lastHeight = 0;
  const report = ({ force = false } = {}) => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === lastHeight && !force) return;
    lastHeight = height;
    // '*': the parent's origin is unknown (any course site); the message holds only a height.
    window.parent.postMessage({ type: 'multiple-heads:height', widget: name, height }, '*');
  };
  new ResizeObserver(() => report()).observe(document.documentElement);
  window.addEventListener('load', () => report());
  document.fonts?.ready.then(() => report());
  for (const type of ['ready', 'change']) widget?.addEventListener(type, () => report());
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.data?.type === 'multiple-heads:report-height') report({ force: true });
  });
}
