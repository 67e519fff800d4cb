// Renders the "This visit" section: protocol, the browser's Accept-Encoding, and the
// table of the page's own assets with wire-versus-decoded bars.
import { h, fill } from './dom.js';
import { bar, codingBadge } from './bars.js';
import { formatBytes, formatExactBytes, formatShare, savingShare } from './format.js';
import { describeContentType } from './mime.js';

function typeCell(contentType) {
  const type = describeContentType(contentType);
  if (!type) return h('td', { class: 'col-type muted', text: 'unknown' });
  return h('td', { class: 'col-type' },
    h('code', { text: type.essence }),
    h('span', {
      class: `tag ${type.compressible ? 'tag-yes' : 'tag-no'}`,
      text: type.compressible ? 'compressible' : 'not compressible',
    }));
}

function sizeCell({ wireBytes, decodedBytes, fromCache, coding }) {
  if (decodedBytes == null) return h('td', { class: 'col-bar muted', text: 'not loaded by this page' });
  const share = wireBytes / decodedBytes;
  const label = `${formatExactBytes(wireBytes)} on the wire for ${formatExactBytes(decodedBytes)} decoded`;
  return h('td', { class: 'col-bar' },
    bar(share, label, coding ?? undefined),
    h('span', { class: 'bar-caption', title: label },
      `${formatBytes(wireBytes)} of ${formatBytes(decodedBytes)}`,
      fromCache ? h('span', { class: 'tag', text: 'from cache' }) : null));
}

function assetRow(measured) {
  const { asset, coding, wireBytes, decodedBytes, error } = measured;
  const saving = savingShare(wireBytes, decodedBytes);
  return h('tr', {
    dataset: {
      asset: asset.path,
      coding: coding ?? 'unknown',
      wireBytes: wireBytes ?? '',
      decodedBytes: decodedBytes ?? '',
    },
  },
  h('th', { scope: 'row' },
    h('a', { href: asset.path, text: asset.path }),
    h('span', { class: 'row-label', text: asset.label }),
    h('span', { class: 'row-why', text: asset.why })),
  typeCell(measured.contentType),
  h('td', { class: 'cell-coding' }, coding ? codingBadge(coding) : h('span', { class: 'error', title: error, text: 'probe failed' })),
  sizeCell(measured),
  h('td', { class: 'num saving', text: formatShare(saving) }));
}

/**
 * @param {HTMLElement} section #visit
 * @param {{ protocol: string, acceptEncoding?: string, documentReason?: string, rows: object[] }} report
 */
export function renderVisit(section, report) {
  const protocol = section.querySelector('#protocol');
  protocol.textContent = report.protocol;
  protocol.dataset.protocol = report.protocol;
  section.querySelector('#accept-encoding').textContent = report.acceptEncoding ?? 'unknown';
  section.querySelector('#document-reason').textContent = report.documentReason ?? '—';
  fill(section.querySelector('#assets tbody'), ...report.rows.map(assetRow));
}
