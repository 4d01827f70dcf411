// English left in German text: the words German UI text does not contain, for the German
// tests (tests/browser/locale-de.test.mjs on the widgets, tests/node/i18n.test.mjs on the
// static figures and the notices). Words of the lesson's sentence and of the reader's
// variants (the, who, it, was, this, nothing…) are token text, not UI, so none of them is
// listed; neither are loanwords the German text uses on purpose (Query, Key, Token, Concat,
// Softmax, Attention, Scores, Bias, Worker, Transformer, Median, Budget, Matrix, Widget).
export const ENGLISH = new Set(`of and to is are with for one two head heads weight weights show hide reset undo
  loading exact value values each row rows column columns drag press pick click type number width sum total other see
  zoom layer output outputs sentence word words reader right skip past embed copy close cancel measure time times
  only same from by its their what which when not all more less than how where there here these those your you has have
  can could would will does feature features look looks spread evenly answer answers question questions correct wrong?
  try notice back own coordinate coordinates direction directions matrices singular rank calls blocks area areas
  merged designed tied untied editing selected maps stage project attend mix picked path numbers share shares moved lands
  plane point points meaning meanings length sequence slider device cancelled stopped progress include`
  .split(/\s+/).filter((word) => word && !word.endsWith('?')));

/** The English words in a string (after taking out quoted token text „…“ and “…”, and tag names). */
export function englishIn(text) {
  const words = text.replace(/„[^“]*“|“[^”]*”|\bmha-[a-z-]+/g, ' ').toLowerCase().split(/[^a-zäöüß’']+/).filter(Boolean);
  return words.filter((word) => ENGLISH.has(word.replace(/[’']s$/, '')));
}

// A decimal point: a digit, a point, a digit, unless it is German grouping (1.024, 4.194.304).
const GROUPED = /(^|[^\d.,])[1-9]\d{0,2}(\.\d{3})+(?!\d)/g;
export const hasDecimalPoint = (text) => /\d\.\d/.test(text.replace(GROUPED, '$1#'));
