// The UI kit's messages: the text layer's i18n (web/text/i18n.js) with the kit's own catalogs
// (web/ui/locales/en.json and de.json: the `ui` group) registered. Every kit file that shows
// text imports this, so the kit speaks without the lesson; the lesson's catalogs add their
// groups beside it (web/widgets/shared/i18n.js).
import en from './locales/en.json' with { type: 'json' };
import de from './locales/de.json' with { type: 'json' };
import { registerLocale } from '../text/i18n.js';

registerLocale('en', en);
registerLocale('de', de);

export * from '../text/i18n.js';
