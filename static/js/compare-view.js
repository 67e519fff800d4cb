// The "Compare codings" panel: asks /_negotiate about one file under a chosen
// Accept-Encoding and shows the server's choice, its reason, and every variant's size.
import { h, fill } from './dom.js';
import { bar, codingBadge } from './bars.js';
import { formatBytes, formatExactBytes, formatShare, savingShare } from './format.js';
import { askServer } from './negotiate.js';

const YOUR_BROWSER = { label: 'Your browser’s', title: 'Send no ae parameter: the server uses this request’s own Accept-Encoding.' };

function describeSource(variant) {
  if (!variant.available) return 'not available';
  return variant.source ?? 'available';
}

function verdict(answer) {
  const code = h('span', { class: `status-code status-${answer.status}`, text: String(answer.status) });
  if (answer.chosen) {
    return h('p', { class: 'verdict-line' }, code, ' The server would send ', codingBadge(answer.chosen),
      answer.source ? ` (${answer.source})` : '', '.');
  }
  return h('p', { class: 'verdict-line' }, code,
    answer.status === 406
      ? ' Not Acceptable: nothing this file can be sent as is acceptable to that header.'
      : ' No representation could be sent right now.');
}

function variantRow(variant, { chosen, largest, identityBytes }) {
  const isChosen = variant.coding === chosen;
  const sizeLabel = variant.bytes == null
    ? `${variant.coding}: size unknown`
    : `${variant.coding}: ${formatExactBytes(variant.bytes)}`;
  return h('tr', {
    class: isChosen ? 'chosen' : null,
    'aria-current': isChosen ? 'true' : null,
    dataset: { coding: variant.coding, bytes: variant.bytes ?? '' },
  },
  h('th', { scope: 'row' }, codingBadge(variant.coding),
    isChosen ? h('span', { class: 'chosen-mark', text: 'chosen' }) : null),
  // data-label names the value once the narrow layout drops the column headers.
  h('td', { class: 'num', 'data-label': 'q', text: String(variant.q) }),
  h('td', { class: variant.acceptable ? 'yes' : 'no', 'data-label': 'acceptable:', text: variant.acceptable ? 'yes' : 'no' }),
  h('td', { class: variant.available ? null : 'muted', text: describeSource(variant) }),
  h('td', { class: 'col-bar' },
    bar(variant.bytes == null ? null : variant.bytes / largest, sizeLabel, variant.coding),
    h('span', { class: 'bar-caption', title: sizeLabel, text: formatBytes(variant.bytes ?? NaN) })),
  h('td', { class: 'num saving', text: formatShare(savingShare(variant.bytes, identityBytes)) }));
}

function variantsTable(answer) {
  const sizes = answer.variants.map((v) => v.bytes).filter(Number.isFinite);
  const largest = Math.max(1, ...sizes);
  const identityBytes = answer.variants.find((v) => v.coding === 'identity')?.bytes ?? null;
  return h('div', { class: 'table-frame' },
    h('table', { id: 'variants', class: 'data' },
      h('caption', { text: `Variants of ${answer.path}, in the server's order of preference` }),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: 'Coding' }),
        h('th', { scope: 'col', class: 'num', text: 'q' }),
        h('th', { scope: 'col', text: 'Acceptable' }),
        h('th', { scope: 'col', text: 'Source' }),
        h('th', { scope: 'col', class: 'col-bar', text: 'Size' }),
        h('th', { scope: 'col', class: 'num', text: 'vs identity' }))),
      h('tbody', {}, ...answer.variants.map((v) =>
        variantRow(v, { chosen: answer.chosen, largest, identityBytes })))));
}

function renderAnswer(result, answer) {
  fill(result,
    h('div', { class: 'verdict', dataset: { status: answer.status } },
      verdict(answer),
      h('p', { class: 'reason', text: answer.reason }),
      h('p', { class: 'asked' }, 'Accept-Encoding: ',
        h('code', { text: answer.acceptEncoding == null ? '(none)' : answer.acceptEncoding || '(empty)' }))),
    variantsTable(answer));
}

/**
 * @param {HTMLElement} section #compare
 * @param {{ compareFirst?: string, assets: { path: string, label: string }[],
 *          codings: { name: string, title: string, note: string }[] }} manifest
 */
export function initCompare(section, manifest) {
  const form = section.querySelector('#compare-form');
  const select = section.querySelector('#compare-asset');
  const presets = section.querySelector('#compare-presets');
  const custom = section.querySelector('#compare-custom');
  const result = section.querySelector('#compare-result');
  // The answer of the last click wins even if an earlier request is slower.
  let latest = 0;

  fill(select, ...manifest.assets.map((asset) =>
    h('option', { value: asset.path, text: `${asset.path} — ${asset.label}` })));
  select.value = manifest.compareFirst ?? manifest.assets[0].path;

  async function ask(acceptEncoding, pressed) {
    const ticket = ++latest;
    for (const button of presets.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(button === pressed));
    }
    section.dataset.state = 'loading';
    section.setAttribute('aria-busy', 'true');
    try {
      const answer = await askServer(select.value, acceptEncoding);
      if (ticket !== latest) return;
      renderAnswer(result, answer);
      section.dataset.state = 'ready';
    } catch (err) {
      if (ticket !== latest) return;
      fill(result, h('p', { class: 'status error', text: `${err.code ?? 'ERROR'}: ${err.message}` }));
      section.dataset.state = 'error';
    } finally {
      if (ticket === latest) section.removeAttribute('aria-busy');
    }
  }

  const allCodings = manifest.codings.map((c) => c.name).join(', ');
  const buttons = [
    ...manifest.codings.map((c) => ({ label: c.name, ae: c.name, title: `${c.title}: ${c.note}`, coding: c.name })),
    { label: 'All six', ae: allCodings, title: `Accept-Encoding: ${allCodings}` },
    { label: YOUR_BROWSER.label, ae: undefined, title: YOUR_BROWSER.title },
  ];
  fill(presets, ...buttons.map((preset) => {
    const button = h('button', {
      type: 'button',
      class: 'preset',
      title: preset.title,
      'aria-pressed': 'false',
      dataset: preset.coding ? { coding: preset.coding } : {},
      text: preset.label,
    });
    button.addEventListener('click', () => ask(preset.ae, button));
    return button;
  }));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ask(custom.value.trim(), null);
  });
}
