// For course pages that embed widgets with <iframe src=".../embed.html?widget=...">:
// include this script once (<script type="module" src=".../embed-resizer.js"></script>) and
// every such iframe takes the height its widget reports. Messages are matched to frames by
// their source window, so other frames and other messages are ignored.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'multiple-heads:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) {
      frame.style.height = `${Math.min(Math.max(data.height, 100), 20000)}px`;
    }
  }
});

// Frames that reported before this script ran (it may load after them) report again.
for (const frame of document.querySelectorAll('iframe')) {
  frame.contentWindow?.postMessage({ type: 'multiple-heads:report-height' }, '*');
}
