'use strict';
// RSS over time as a standalone SVG line chart, with the verdict's two windows shaded.
const { niceTicks, escapeXml } = require('../../tools/report/svg-chart');

const MiB = 1024 * 1024;

function rssChart({ title, samples, windowS }) {
  const width = 720;
  const height = 360;
  const m = { left: 64, right: 20, top: 40, bottom: 48 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const end = samples.length ? samples[samples.length - 1].t : 1;
  const maxMiB = Math.max(...samples.map((s) => Math.max(s.rssBytes, s.hwmBytes) / MiB), 1);
  const y = niceTicks(maxMiB);
  const x = niceTicks(end);
  const px = (t) => m.left + (t / x.top) * plotW;
  const py = (mib) => m.top + plotH - (mib / y.top) * plotH;
  const line = (key) => samples.map((s, i) => `${i ? 'L' : 'M'}${px(s.t).toFixed(1)},${py(s[key] / MiB).toFixed(1)}`).join('');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="14">${escapeXml(title)}</text>`,
    `<rect x="${px(0)}" y="${m.top}" width="${px(windowS) - px(0)}" height="${plotH}" fill="#eee"/>`,
    `<rect x="${px(end - windowS)}" y="${m.top}" width="${px(end) - px(end - windowS)}" height="${plotH}" fill="#eee"/>`,
  ];
  for (const tick of y.ticks) {
    parts.push(`<line x1="${m.left}" x2="${m.left + plotW}" y1="${py(tick)}" y2="${py(tick)}" stroke="#ddd"/>`,
      `<text x="${m.left - 6}" y="${py(tick) + 4}" text-anchor="end">${tick}</text>`);
  }
  for (const tick of x.ticks) parts.push(`<text x="${px(tick)}" y="${m.top + plotH + 16}" text-anchor="middle">${tick}</text>`);
  parts.push(
    `<text x="${m.left + plotW / 2}" y="${height - 10}" text-anchor="middle">seconds (shaded: the first and last windows compared)</text>`,
    `<text transform="translate(16 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">MiB</text>`,
    `<path d="${line('hwmBytes')}" fill="none" stroke="#E69F00" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    `<path d="${line('rssBytes')}" fill="none" stroke="#0072B2" stroke-width="2"/>`,
    `<text x="${m.left + 8}" y="${m.top + 14}" fill="#0072B2">RSS (VmRSS)</text>`,
    `<text x="${m.left + 110}" y="${m.top + 14}" fill="#E69F00">peak so far (VmHWM)</text>`,
    '</svg>');
  return `${parts.join('\n')}\n`;
}

module.exports = { rssChart };
