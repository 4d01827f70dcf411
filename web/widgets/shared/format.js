// Number formatting for displays: fixed decimals, a real minus sign, and never "NaN" or
// "Infinity" on screen (the core rejects those before they reach a display; this is the
// last guard).

export function formatNumber(value, decimals = 2) {
  if (!Number.isFinite(value)) return '—';
  const rounded = Number(value.toFixed(decimals));
  const text = Math.abs(rounded).toFixed(decimals);
  return rounded < 0 ? `−${text}` : text;
}

export function formatCount(value) {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}

export function formatPercent(value, decimals = 0) {
  return Number.isFinite(value) ? `${(value * 100).toFixed(decimals)}%` : '—';
}
