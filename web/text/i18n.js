// Localised UI text: every string a widget shows (labels, captions, messages, live-region
// announcements, errors, aria labels, button texts) comes from a registered message catalog
// (the lesson's: lessons/multiple-heads/locales/<locale>.json, registered by the widgets'
// web/widgets/shared/i18n.js), one per locale, through a Messages object. This file knows no
// lesson: the UI kit (web/ui/) and the text helpers below the widgets use it as it is.
//
//   const m = messagesFor(this);            // the locale of this element (its lang, or the page's)
//   m.t('blend.tryCaption', { word: 'it' }) // "…“it”…"; {name} placeholders
//   m.t('ui.reader.count', { count: 3 })    // plural forms chosen by Intl.PluralRules
//   m.number(0.45, 2)                       // "0.45" / "0,45" (Intl.NumberFormat, minus U+2212)
//   m.parse('0,45', { min: 0, max: 1, what }) // the locale's decimal separator
//
// Lookup is synchronous and cheap: the catalogs are JSON modules bundled with the widgets,
// and one Messages object per locale is cached. A key missing in a locale falls back to
// English (with a console warning in development), so a partial translation still works.
import { decimalSeparator, formatCount, formatNumber, formatPercent } from './format.js';
import { parseNumber, setDefaultMessages } from './parse-number.js';

export const DEFAULT_LOCALE = 'en';
// Empty until a catalog is registered: the lesson's (English and German) are registered by
// web/widgets/shared/i18n.js, which every widget imports; a course adds its own.
const catalogs = new Map();
const cache = new Map();
setDefaultMessages(() => messagesFor(DEFAULT_LOCALE));
const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);
const DEV = Boolean(import.meta.env?.DEV);

/**
 * Adds a locale's messages at run time, or replaces some of its groups (a group is a
 * top-level key: ui, blend, practice…), e.g. a course's French file:
 * `registerLocale('fr', await (await fetch('fr.json')).json())` before the widgets connect.
 */
export function registerLocale(tag, messages) {
  if (typeof tag !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag)) throw new Error(`registerLocale: “${String(tag).slice(0, 20)}” is not a language tag like “fr” or “de-CH”`);
  if (messages === null || typeof messages !== 'object' || Array.isArray(messages)) throw new Error('registerLocale: the messages must be an object (the contents of a locale file)');
  // Merged by top-level group: the kit registers its `ui` group, the lesson its own groups,
  // a course may replace any of them.
  catalogs.set(tag.toLowerCase(), { ...(catalogs.get(tag.toLowerCase()) ?? {}), ...messages });
  for (const key of [...cache.keys()]) if (key.startsWith(tag.toLowerCase().split('-')[0])) cache.delete(key);
}

/** The locales that have a message file, e.g. ['en', 'de']. */
export function availableLocales() {
  return [...new Set([...catalogs.keys(), ...loaders.keys()])];
}

// Catalogs fetched on first use: the one-widget entries (vite.widgets.config.js) bring
// English and load another language's messages only for a widget that speaks it.
const loaders = new Map(); // locale -> [() => Promise<messages>]
const loading = new Map(); // locale -> Promise, while its loaders run

/** Adds messages for a locale that load() fetches when a widget first needs that locale (loadLocale). */
export function registerLocaleLoader(tag, load) {
  const key = tag.toLowerCase();
  loaders.set(key, [...(loaders.get(key) ?? []), load]);
}

/**
 * Fetches the messages registered with registerLocaleLoader for a language tag or a node's
 * language (its exact tag, else its language), once: a Promise, or null when there is
 * nothing to fetch. The fetched messages go under those already registered (a course's own
 * wording wins). A failed fetch leaves English in their place, with a console warning.
 */
export function loadLocale(localeOrNode) {
  const wanted = typeof localeOrNode === 'string' ? localeOrNode : localeOf(localeOrNode);
  const tag = String(wanted ?? '').trim().toLowerCase().replace(/_/g, '-');
  const key = loaders.has(tag) || loading.has(tag) ? tag : tag.split('-')[0];
  const pending = loaders.get(key);
  if (!pending) return loading.get(key) ?? null;
  loaders.delete(key);
  const done = Promise.all(pending.map((load) => load())).then((parts) => {
    catalogs.set(key, Object.assign({}, ...parts, catalogs.get(key)));
    for (const cached of [...cache.keys()]) if (cached.startsWith(key.split('-')[0])) cache.delete(cached);
  }, (error) => console.warn(`i18n: the “${key}” messages could not be loaded (${error?.message}); using English`))
    .then(() => loading.delete(key));
  loading.set(key, done);
  return done;
}

/**
 * The language of a node: its closest [lang] ancestor, crossing shadow roots to their hosts
 * (a widget's parts live in its shadow tree), else the page's <html lang>, else English.
 */
export function localeOf(node) {
  let current = node;
  while (current) {
    const withLang = current.closest?.('[lang]');
    if (withLang && withLang.getAttribute('lang')) return withLang.getAttribute('lang');
    const root = current.getRootNode?.();
    current = root && root !== current && root.host ? root.host : null;
  }
  return globalThis.document?.documentElement?.lang || DEFAULT_LOCALE;
}

/** The catalog for a language tag: exact ("de-ch"), then the language ("de"), then English. */
export function resolveLocale(tag) {
  const wanted = String(tag ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (catalogs.has(wanted)) return wanted;
  const language = wanted.split('-')[0];
  return catalogs.has(language) ? language : DEFAULT_LOCALE;
}

/** The Messages for a language tag or for a node (see localeOf); cached per locale. */
export function messagesFor(localeOrNode = DEFAULT_LOCALE) {
  const tag = typeof localeOrNode === 'string' ? localeOrNode : localeOf(localeOrNode);
  const locale = resolveLocale(tag);
  let messages = cache.get(locale);
  if (!messages) {
    messages = new Messages(locale, catalogs.get(locale));
    cache.set(locale, messages);
  }
  return messages;
}

/** A key's entry in a (nested) catalog: "blend.caption.try" -> catalog.blend.caption.try. */
function lookup(catalog, key) {
  let entry = catalog;
  for (const part of key.split('.')) {
    if (entry === null || typeof entry !== 'object' || !Object.hasOwn(entry, part)) return undefined;
    entry = entry[part];
  }
  return entry;
}

/** Whether an entry is a set of plural forms ({ one, other, … }) rather than a group of keys. */
export function isPluralEntry(entry) {
  return entry !== null && typeof entry === 'object' && typeof entry.other === 'string'
    && Object.keys(entry).every((k) => PLURAL_CATEGORIES.has(k));
}

export class Messages {
  constructor(locale, catalog) {
    this.locale = locale;
    this.catalog = catalog ?? {};
    this.warned = new Set();
  }

  // The Intl objects are made on first use: the first Intl.NumberFormat of a page loads the
  // locale's number data, about 40 ms on a desktop here (issue 25: four times that on a slow
  // phone), and a widget's first view needs none of them in English.

  /** The locale's plural rules (one / other / …). */
  get plurals() {
    this.#plurals ??= new Intl.PluralRules(this.locale);
    return this.#plurals;
  }

  /** The locale's decimal separator: '.' in English, ',' in German. */
  get decimalSeparator() {
    this.#decimalSeparator ??= decimalSeparator(this.locale);
    return this.#decimalSeparator;
  }

  /** A conjunction list format ("a, b, and c"), or null where Intl.ListFormat is missing. */
  get listFormat() {
    if (this.#listFormat === undefined) this.#listFormat = typeof Intl.ListFormat === 'function' ? new Intl.ListFormat(this.locale, { type: 'conjunction' }) : null;
    return this.#listFormat;
  }

  #plurals;
  #decimalSeparator;
  #listFormat;

  /** Whether this locale (or English, as fallback) has the key. */
  has(key) {
    return lookup(this.catalog, key) !== undefined || lookup(catalogs.get(DEFAULT_LOCALE), key) !== undefined;
  }

  /**
   * The message for a key with its {placeholders} filled in. Numbers among the params are
   * formatted for the locale (integers with grouping: 1,024 / 1.024); pass m.number(v, d)
   * for fixed decimals. A plural entry ({ one, other }) is chosen by params.count.
   */
  t(key, params = {}) {
    let entry = lookup(this.catalog, key);
    if (typeof entry !== 'string' && !isPluralEntry(entry)) {
      const fallback = lookup(catalogs.get(DEFAULT_LOCALE), key);
      if (!this.warned.has(key)) {
        this.warned.add(key);
        if (fallback === undefined) console.warn(`i18n: no message “${key}” in any locale`);
        else if (DEV) console.warn(`i18n: “${key}” is missing in ${this.locale}; using English`);
      }
      entry = fallback;
    }
    if (isPluralEntry(entry)) {
      const category = this.plurals.select(Number(params.count ?? 0));
      entry = entry[category] ?? entry.other;
    }
    if (typeof entry !== 'string') return key;
    return entry.replace(/\{(\w+)\}/g, (whole, name) => {
      if (!Object.hasOwn(params, name)) return whole;
      const value = params[name];
      return typeof value === 'number' ? this.count(value) : String(value);
    });
  }

  /**
   * The message as a list of strings and DOM nodes, for text with markup inside: params that
   * are nodes (or arrays of nodes and strings) are put in place of their placeholders.
   * m.nodes('blend.caption', { try: element('strong', …), word: 'it' }) -> ['…', <strong>, '…']
   */
  nodes(key, params = {}) {
    const slots = {};
    const text = {};
    for (const [name, value] of Object.entries(params)) {
      if (Array.isArray(value) || (value !== null && typeof value === 'object' && 'nodeType' in value)) slots[name] = value;
      else text[name] = value;
    }
    const message = this.t(key, text);
    const out = [];
    let last = 0;
    for (const match of message.matchAll(/\{(\w+)\}/g)) {
      if (!Object.hasOwn(slots, match[1])) continue;
      if (match.index > last) out.push(message.slice(last, match.index));
      out.push(...[slots[match[1]]].flat());
      last = match.index + match[0].length;
    }
    if (last < message.length) out.push(message.slice(last));
    return out;
  }

  /**
   * A head's name in this language: the locale's world.heads.<id>.name, else the name in
   * world.json (the lesson's own language). A merged head (h < 4) joins its members' names.
   */
  headName(head) {
    if (head.members?.length > 1) return head.members.map((member) => this.headName(member)).join(' + ');
    // An author's world names its heads itself: the catalog translates the lesson's heads only.
    if ((head.members?.[0] ?? head).lesson === false) return head.members?.[0]?.name ?? head.name;
    const id = head.members?.[0]?.id ?? head.id;
    const own = lookup(this.catalog, `world.heads.${id}.name`);
    return typeof own === 'string' ? own : (head.members?.[0]?.name ?? head.name);
  }

  /** A head's question ("who is doing this?") in this language, else world.json's. */
  headQuestion(head) {
    if ((head.members?.[0] ?? head).lesson === false) return head.members?.[0]?.question ?? head.question;
    const id = head.members?.[0]?.id ?? head.id;
    const own = lookup(this.catalog, `world.heads.${id}.question`);
    return typeof own === 'string' ? own : (head.members?.[0]?.question ?? head.question);
  }

  /** A feature's name (a column of X) in this language: world.features.<name>, else world.json's. */
  featureName(name) {
    const own = lookup(this.catalog, `world.features.${name}`);
    return typeof own === 'string' ? own : name;
  }

  /**
   * Text that comes from the lesson's data or an author's config (a configuration's label):
   * the locale's translation in the table `group` ({ "single wide head": "…" }), else as given.
   */
  dataText(group, text) {
    const table = lookup(this.catalog, group);
    return table && typeof table === 'object' && typeof table[text] === 'string' ? table[text] : text;
  }

  /** A widget's title (the registry's key: 'blend'), for skip links and zoom links. */
  widgetTitle(key, fallback = key) {
    return this.has(`widgets.${key}.title`) ? this.t(`widgets.${key}.title`) : fallback;
  }

  /** A number with fixed decimals, as displays show it (decimal comma in German, minus U+2212). */
  number(value, decimals = 2) {
    return formatNumber(value, decimals, this.locale);
  }

  /** A whole number with the locale's grouping (262,144 / 262.144). */
  count(value) {
    return Number.isInteger(value) ? formatCount(value, this.locale) : formatNumber(value, 3, this.locale).replace(/0+$/, '').replace(/[.,]$/, '');
  }

  percent(value, decimals = 0) {
    return formatPercent(value, decimals, this.locale);
  }

  /** "a, b and c" / "a, b und c". */
  list(items) {
    return this.listFormat ? this.listFormat.format(items.map(String)) : items.join(', ');
  }

  /** Parses what a learner typed, with this locale's decimal separator and messages. */
  parse(text, limits = {}) {
    return parseNumber(text, { ...limits, messages: this });
  }

  /** The editable text of a value: fixed decimals, the locale's separator, ASCII minus (typable). */
  fieldText(value, decimals = 2) {
    return this.number(value, decimals).replace('\u2212', '-');
  }
}
