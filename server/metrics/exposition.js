'use strict';
// The Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/): what one scrape of
// GET /metrics returns. Pure: families in, text out.

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
// Names starting with __ are reserved for Prometheus itself.
const LABEL_NAME = /^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$/;

// In a label value, backslash, double quote and line feed are escaped; in HELP text, backslash
// and line feed only.
function escapeLabelValue(value) {
  return String(value).replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function escapeHelp(text) {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

// Go's ParseFloat reads what String() writes, except the three special values.
function formatValue(n) {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

/** `a="x",b="y"`: the pairs inside a series' braces, values escaped ('' without labels). */
function labelPairs(names, values) {
  return names.map((name, i) => `${name}="${escapeLabelValue(values[i])}"`).join(',');
}

function braced(pairs) {
  return pairs === '' ? '' : `{${pairs}}`;
}

// family: { name, help, type ('counter' | 'gauge' | 'histogram'), series: Map of cells }, a
// counter or gauge cell { labels (pairs), value }, a histogram cell { labels, counts (one per
// bucket and +Inf, not cumulative), sum, count } with the family's bounds.
function renderFamily(family) {
  const lines = [`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`];
  for (const cell of family.series.values()) {
    if (family.type !== 'histogram') {
      lines.push(`${family.name}${braced(cell.labels)} ${formatValue(cell.value)}`);
      continue;
    }
    const sep = cell.labels === '' ? '' : ',';
    let cumulative = 0;
    family.bounds.forEach((bound, i) => {
      cumulative += cell.counts[i];
      lines.push(`${family.name}_bucket{${cell.labels}${sep}le="${formatValue(bound)}"} ${cumulative}`);
    });
    lines.push(`${family.name}_bucket{${cell.labels}${sep}le="+Inf"} ${cell.count}`);
    lines.push(`${family.name}_sum${braced(cell.labels)} ${formatValue(cell.sum)}`);
    lines.push(`${family.name}_count${braced(cell.labels)} ${cell.count}`);
  }
  return lines.join('\n') + '\n';
}

function render(families) {
  return families.map(renderFamily).join('');
}

module.exports = { CONTENT_TYPE, METRIC_NAME, LABEL_NAME, escapeLabelValue, escapeHelp, formatValue, labelPairs, render };
