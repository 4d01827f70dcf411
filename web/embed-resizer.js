// For course pages that embed widgets with <iframe src=".../embed.html?widget=...">:
// include this script once (<script type="module" src=".../embed-resizer.js"></script>) and
// every widget frame takes the height its widget reports.
//
// Only widget frames are resized, and only by their own widget. A message is applied when
//  * it comes from a frame's own window (event.source === frame.contentWindow), and
//  * that frame is a widget frame: its src is the embed.html next to this script (same
//    origin and folder, any query) or a single file in the single/ folder beside it
//    (single/<widget>.html), or the author marked it with data-multiple-heads
//    (for frames from another copy of the site, or a bundled copy of this script), and
//  * event.origin is the origin that frame's document must have: "null" when the frame is
//    sandboxed without allow-same-origin (an opaque origin), else the origin of its src.
//    A frame that navigated elsewhere keeps its src attribute but not its origin.
// The height is clamped to 100..MAX_HEIGHT px, so not even a widget frame can push the
// host's content a screen-length away.
export const MAX_HEIGHT = 8000;
const MIN_HEIGHT = 100;
// Not new URL('./embed.html', import.meta.url) spelled out: bundlers would take that for
// an asset to copy and rename. The page is the one beside this script in the built site.
const HERE = import.meta.url;
const EMBED_PAGE = new URL('./embed.html', HERE);
const SINGLE_DIR = new URL('./single/', HERE);

function frameUrl(frame) {
  try {
    return new URL(frame.getAttribute('src') ?? '', document.baseURI);
  } catch {
    return null;
  }
}

/** The origin `frame`'s widget posts from, or null when the frame is not a widget frame. */
export function widgetFrameOrigin(frame) {
  const url = frameUrl(frame);
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  const here = url.origin === EMBED_PAGE.origin;
  const isEmbedPage = here && url.pathname === EMBED_PAGE.pathname;
  const isSingleFile = here && url.pathname.startsWith(SINGLE_DIR.pathname)
    && /^[a-z-]+\.html$/.test(url.pathname.slice(SINGLE_DIR.pathname.length));
  if (!isEmbedPage && !isSingleFile && !frame.hasAttribute('data-multiple-heads')) return null;
  const opaque = frame.hasAttribute('sandbox') && !frame.sandbox.contains('allow-same-origin');
  return opaque ? 'null' : url.origin;
}

window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'multiple-heads:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow !== event.source) continue;
    if (event.origin !== widgetFrameOrigin(frame)) return;
    frame.style.height = `${Math.round(Math.min(Math.max(data.height, MIN_HEIGHT), MAX_HEIGHT))}px`;
    return;
  }
});

// Frames that reported before this script ran (it may load after them) report again. The
// request goes only to widget frames ("*" for an opaque origin, which cannot be named).
for (const frame of document.querySelectorAll('iframe')) {
  const origin = widgetFrameOrigin(frame);
  if (origin) frame.contentWindow?.postMessage({ type: 'multiple-heads:report-height' }, origin === 'null' ? '*' : origin);
}
