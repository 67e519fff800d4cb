// Human-readable numbers for the tables. Decimal units (kB = 1000 B), as browsers' network panels use.

const UNITS = ['B', 'kB', 'MB', 'GB'];

export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** Exact count with thousands separators, for titles and screen readers. */
export function formatExactBytes(bytes) {
  return Number.isFinite(bytes) ? `${bytes.toLocaleString('en')} bytes` : 'unknown size';
}

/** Share of `whole` saved by sending `part` instead; null when it cannot be known. */
export function savingShare(part, whole) {
  if (!Number.isFinite(part) || !Number.isFinite(whole) || whole <= 0) return null;
  return 1 - part / whole;
}

export function formatShare(share) {
  if (share == null) return '—';
  const percent = share * 100;
  // Negative savings are real (a coding can grow a file); show them, with a true minus sign.
  const text = Math.abs(percent) < 10 ? Math.abs(percent).toFixed(1) : Math.abs(percent).toFixed(0);
  return `${percent < 0 ? '−' : ''}${text} %`;
}
