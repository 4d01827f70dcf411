// The widgets' messages: the text layer's i18n (web/text/i18n.js), with the lesson's catalogs
// (lessons/multiple-heads/locales/en.json and de.json) registered. Widgets import this file;
// the UI kit imports web/text/i18n.js and so does not depend on the lesson.
import en from '../../../lessons/multiple-heads/locales/en.json' with { type: 'json' };
import de from '../../../lessons/multiple-heads/locales/de.json' with { type: 'json' };
import { registerLocale } from '../../text/i18n.js';
import '../../ui/messages.js'; // the kit's own group (ui), registered first

registerLocale('en', en);
registerLocale('de', de);

export * from '../../text/i18n.js';
