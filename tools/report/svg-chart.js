'use strict';
// Grouped bar charts as standalone SVG (no library, no browser needed to
// make them). One group per category, one bar per series, an optional min-max
// whisker per bar, a labelled y axis starting at zero, and a legend.
//
// groupedBarChart({
//   title, yLabel, xLabel,
//   categories: ['br', 'gzip'],
//   series: [{ name: 'ours', values: [{ value, min, max } | null, ...] }],
//   format: (n) => string,         // bar and tick labels
//   width, height,
// })
// A null value draws "n/a" where the bar would be (measured as impossible);
// an undefined one leaves the slot empty (not part of the comparison).

// Okabe-Ito: distinguishable with the common colour-vision deficiencies.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#999999', '#F0E442'];

function escapeXml(text) {
  return String(text).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);
}

// Tick step of 1, 2 or 5 x 10^k giving about `target` intervals up to max.
function niceTicks(max, target = 5) {
  if (!(max > 0)) return { step: 1, top: 1, ticks: [0, 1] };
  const raw = max / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * mag).find((s) => s >= raw);
  const top = Math.ceil(max / step) * step;
  const ticks = [];
  for (let i = 0; i <= Math.round(top / step); i++) ticks.push(Number((i * step).toPrecision(12)));
  return { step, top, ticks };
}

function compactNumber(n) {
  const abs = Math.abs(n);
  if (abs >= 1e6) return `${Number((n / 1e6).toPrecision(3))}M`;
  if (abs >= 1e4) return `${Number((n / 1e3).toPrecision(3))}k`;
  return String(Number(n.toPrecision(3)));
}

// Legend entries flow left to right and wrap; widths are estimated from the
// text length because an SVG writer cannot measure text.
function legendLayout(names, left, width) {
  const items = [];
  let x = left;
  let row = 0;
  for (const name of names) {
    const w = 18 + name.length * 6.8 + 22;
    if (x + w > left + width && x > left) {
      x = left;
      row++;
    }
    items.push({ name, x, row });
    x += w;
  }
  return { items, rows: row + 1 };
}

function text(x, y, content, attrs = '') {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attrs}>${escapeXml(content)}</text>`;
}

function groupedBarChart({
  title, yLabel, xLabel, categories, series, format = compactNumber, width = 880, height = 440,
}) {
  const left = 84;
  const right = 24;
  const legend = legendLayout(series.map((s) => s.name), left, width - left - right);
  const margin = { top: 48 + legend.rows * 20, right, bottom: 64, left };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const all = series.flatMap((s) => s.values.filter(Boolean).map((v) => Math.max(v.value, v.max ?? v.value)));
  const { top, ticks } = niceTicks(Math.max(0, ...all));
  const y = (v) => margin.top + plotH - (v / top) * plotH;
  const groupW = plotW / Math.max(1, categories.length);
  const barW = Math.min(56, (groupW * 0.8) / Math.max(1, series.length));
  const out = [];

  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  // Opaque background: a transparent SVG is unreadable on a dark page theme.
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(text(width / 2, 24, title, 'text-anchor="middle" font-size="16" font-weight="bold" fill="#111"'));

  legend.items.forEach(({ name, x, row }, i) => {
    const ly = 44 + row * 20;
    out.push(`<rect x="${x.toFixed(1)}" y="${ly - 10}" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/>`);
    out.push(text(x + 18, ly, name, 'fill="#222"'));
  });

  for (const t of ticks) {
    const ty = y(t);
    out.push(`<line x1="${margin.left}" y1="${ty.toFixed(1)}" x2="${width - margin.right}" y2="${ty.toFixed(1)}" stroke="${t === 0 ? '#444' : '#e3e3e3'}"/>`);
    out.push(text(margin.left - 8, ty + 4, format(t), 'text-anchor="end" fill="#333"'));
  }
  const yMid = margin.top + plotH / 2;
  out.push(text(18, yMid, yLabel, `text-anchor="middle" transform="rotate(-90 18 ${yMid.toFixed(1)})" font-size="13" fill="#111"`));
  out.push(text(margin.left + plotW / 2, height - 16, xLabel, 'text-anchor="middle" font-size="13" fill="#111"'));

  categories.forEach((cat, ci) => {
    const gx = margin.left + ci * groupW + (groupW - barW * series.length) / 2;
    out.push(text(margin.left + ci * groupW + groupW / 2, margin.top + plotH + 20, cat, 'text-anchor="middle" font-size="13" fill="#111"'));
    series.forEach((s, si) => {
      const v = s.values[ci];
      const bx = gx + si * barW;
      const cx = bx + barW / 2;
      if (v === undefined) return;
      if (v === null) {
        out.push(text(cx, y(0) - 4, 'n/a', 'text-anchor="middle" font-size="10" fill="#777"'));
        return;
      }
      const by = y(v.value);
      out.push(`<rect x="${(bx + 1).toFixed(1)}" y="${by.toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(y(0) - by).toFixed(1)}" fill="${PALETTE[si % PALETTE.length]}"><title>${escapeXml(`${s.name}, ${cat}: ${format(v.value)}`)}</title></rect>`);
      let labelY = by - 4;
      if (Number.isFinite(v.min) && Number.isFinite(v.max) && v.max > v.min) {
        const [y1, y2] = [y(v.min), y(v.max)];
        out.push(`<path d="M${cx.toFixed(1)} ${y1.toFixed(1)}V${y2.toFixed(1)}M${(cx - 4).toFixed(1)} ${y1.toFixed(1)}h8M${(cx - 4).toFixed(1)} ${y2.toFixed(1)}h8" stroke="#222" stroke-width="1"/>`);
        labelY = Math.min(labelY, y2 - 4);
      }
      out.push(text(cx, labelY, format(v.value), 'text-anchor="middle" font-size="10" fill="#222"'));
    });
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

module.exports = { groupedBarChart, niceTicks, compactNumber, escapeXml };
