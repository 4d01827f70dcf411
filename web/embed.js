// embed.html?widget=<name>&<attribute>=<value>...: one widget alone, for <iframe> embeds.
// The widget's state lives in this frame's address (?mha.<key>=…, as on the lesson page), so
// a frame URL reproduces exactly what a learner saw. The frame reports its height to the
// parent page (postMessage) so that the parent can size the iframe (see embed-resizer.js).
// Every parameter is checked against a fixed list: unknown widgets or attributes are
// refused with a visible message, never interpreted.
import './widgets/all.js';
import { WIDGETS } from './widgets/registry.js';
import { isStateParameter } from './widgets/shared/lesson-state.js';
import { messagesFor } from './widgets/shared/i18n.js';
import { reportFrameHeight } from './embed-height.js';

const root = document.getElementById('embed-root');
const params = new URLSearchParams(location.search);
const name = params.get('widget') ?? '';
const entry = Object.hasOwn(WIDGETS, name) ? WIDGETS[name] : null;
// &lang=de: the frame holds only the widget, so the whole frame is in its language (screen
// readers, the frame's title); a value that is not a language tag is left to the check below.
const lang = params.get('lang');
if (lang !== null && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang)) document.documentElement.lang = lang;
const m = messagesFor(document.documentElement);

function refuse(message) {
  const box = document.createElement('p');
  box.className = 'embed-error';
  box.setAttribute('role', 'alert');
  box.textContent = message;
  root.replaceChildren(box);
}

let widget = null;
if (!entry) {
  refuse(m.t('embedPage.unknownWidget', { name: name.slice(0, 40), names: Object.keys(WIDGETS).join(', ') }));
} else {
  const element = document.createElement(entry.tag);
  widget = element;
  element.setAttribute('heading-level', '2'); // under this frame's own h1
  // The frame holds this one widget: built as soon as the core is there, not when it comes
  // near the view (a cross-origin frame off-screen gets no intersection updates, and the
  // host page decides when the frame loads: <iframe loading="lazy">).
  element.setAttribute('loading', 'eager');
  const ignored = [];
  for (const [key, value] of params) {
    // The widget keeps its live state in this frame's address too (?mha.<key>=, see
    // lesson-state.js): those parameters are its own, not attributes.
    if (key === 'widget' || isStateParameter(key)) continue;
    if (key === 'lang' && value !== document.documentElement.lang) ignored.push('lang');
    else if (entry.attributes.includes(key) && value.length <= 4000) element.setAttribute(key, value);
    else ignored.push(key.slice(0, 40));
  }
  const title = m.widgetTitle(name, entry.title);
  document.title = `${title}: Multiple Heads`;
  // The frame's own page heading, for screen readers (the host page shows its own title).
  const heading = document.createElement('h1');
  heading.className = 'sr-only';
  heading.textContent = title;
  root.append(heading, element);
  if (ignored.length > 0) {
    const note = document.createElement('p');
    note.className = 'embed-error';
    note.textContent = m.t('embedPage.ignored', { names: ignored.join(', ') });
    root.prepend(note);
  }
}

// The frame's height, for the page around it (embed-resizer.js sizes the iframe).
reportFrameHeight(widget, name);
