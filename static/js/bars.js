// The one bar-chart primitive both tables use: a filled share of a track.
import { h } from './dom.js';

/**
 * @param {number|null} share 0..1 of the track to fill; null draws an empty track
 * @param {string} label spoken by screen readers in place of the picture
 * @param {string} [coding] colours the fill with that coding's colour
 */
export function bar(share, label, coding) {
  const fillEl = h('span', { class: 'bar-fill' });
  // Through CSSOM rather than a style attribute, so a strict style-src CSP still allows it.
  fillEl.style.setProperty('--share', String(Math.max(0, Math.min(1, share ?? 0))));
  return h('span', { class: 'bar', role: 'img', 'aria-label': label, dataset: coding ? { coding } : {} }, fillEl);
}

/** A coding name as a coloured pill; the colour is keyed by data-coding in the style sheet. */
export function codingBadge(coding) {
  return h('span', { class: 'coding', dataset: { coding }, text: coding });
}
