// Number formatting for displays: fixed decimals, a real minus sign, and never "NaN" or
// "Infinity" on screen (the core rejects those before they reach a display; this is the
// last guard). The locale (a language tag such as 'de') decides the decimal separator and
// the grouping of counts, through Intl.NumberFormat; English is the default. Callers with a
// Messages object (i18n.js) use m.number / m.count / m.percent, which pass its locale.

const formats = new Map();

/** One cached Intl.NumberFormat per locale and options (they are costly to create). */
function numberFormat(locale, options) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** The locale's decimal separator: '.' in English, ',' in German. */
export function decimalSeparator(locale = 'en') {
  if (locale === 'en') return '.';
  return numberFormat(locale, {}).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
}

export function formatNumber(value, decimals = 2, locale = 'en') {
  if (!Number.isFinite(value)) return '—';
  const rounded = Number(value.toFixed(decimals));
  // toFixed, not Intl, for the digits: no grouping in fixed-decimal readouts (they line up
  // in columns), and the same digits in every locale; only the separator is the locale's.
  let text = Math.abs(rounded).toFixed(decimals);
  if (locale !== 'en') text = text.replace('.', decimalSeparator(locale));
  return rounded < 0 ? `−${text}` : text;
}

export function formatCount(value, locale = 'en') {
  if (!Number.isFinite(value)) return '—';
  const whole = Math.round(value) || 0; // no "−0"
  // English groups by threes with a comma, as Intl's en-US does (a test holds the two equal):
  // written out here so that a page in English makes no Intl.NumberFormat, whose first one
  // loads the locale's number data (about 40 ms here, issue 25). Past 1e21 toString would
  // switch to exponents; Intl writes those.
  if (locale === 'en' && Math.abs(whole) < 1e21) {
    const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ',');
    return whole < 0 ? `−${digits}` : digits;
  }
  return numberFormat(locale === 'en' ? 'en-US' : locale, { maximumFractionDigits: 0 }).format(whole).replace('-', '−');
}

export function formatPercent(value, decimals = 0, locale = 'en') {
  if (!Number.isFinite(value)) return '—';
  if (locale === 'en') return `${(value * 100).toFixed(decimals)}%`;
  return numberFormat(locale, { style: 'percent', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value).replace('-', '−');
}
