// Renders the "Dictionary delta" section: the newer release as this browser received it, as br,
// and as the delta the server makes against the older release, on one scale.
import { h, fill, setSectionState } from './dom.js';
import { bar, codingBadge } from './bars.js';
import { formatBytes, formatExactBytes, formatShare, savingShare } from './format.js';

const DELTAS = ['dcb', 'dcz'];

function row(key, what, coding, bytes, largest, brBytes) {
  const label = `${what}: ${formatExactBytes(bytes)}`;
  return h('tr', { dataset: { row: key, coding: coding ?? 'unknown', bytes: bytes ?? '' } },
    h('th', { scope: 'row', text: what }),
    h('td', { class: 'cell-coding' }, coding ? codingBadge(coding) : h('span', { class: 'muted', text: 'unknown' })),
    h('td', { class: 'col-bar' },
      bar(Number.isFinite(bytes) ? bytes / largest : null, label, coding ?? undefined),
      h('span', { class: 'bar-caption', title: label, text: formatBytes(bytes ?? NaN) })),
    h('td', { class: 'num saving', text: formatShare(savingShare(bytes, brBytes)) }));
}

function statusText(pair, report) {
  const { received, brBytes } = report;
  if (DELTAS.includes(received.coding)) {
    return `Your browser held ${pair.dictionaryLabel} and got ${pair.label} as a ${received.coding} delta against it: `
      + `${formatExactBytes(received.wireBytes)} on the wire instead of ${formatExactBytes(brBytes)} as br.`;
  }
  return `Your browser got ${pair.label} without the dictionary${received.coding ? ` (${received.coding})` : ''}. `
    + 'Chromium 130+ sends Available-Dictionary only to a site whose certificate it trusts (a certificate warning '
    + `clicked through is not enough), and only once it holds ${pair.dictionaryLabel}: reload the page to see the delta.`;
}

/**
 * @param {HTMLElement} section #delta
 * @param {{ dictionary: string, file: string, label: string, dictionaryLabel: string }} pair
 * @param {Awaited<ReturnType<import('./delta.js').measureDelta>>} report
 */
export function renderDelta(section, pair, report) {
  const { received, brBytes, delta } = report;
  const largest = Math.max(1, ...[received.wireBytes, brBytes, delta.bytes].filter(Number.isFinite));
  fill(section.querySelector('#delta-table tbody'),
    row('received', 'As this browser received it', received.coding, received.wireBytes, largest, brBytes),
    row('br', 'As br, without the dictionary', 'br', brBytes, largest, brBytes),
    row('delta', `As a delta against ${pair.dictionaryLabel}`, delta.coding, delta.bytes, largest, brBytes));
  section.querySelector('#delta-reason').textContent = delta.reason;
  section.dataset.received = received.coding ?? 'unknown';
  setSectionState(section, 'ready', statusText(pair, report));
}
