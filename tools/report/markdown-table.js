'use strict';
// GitHub-flavoured Markdown tables.
// columns: [{ title, align: 'left' | 'right' | 'center' }]; rows: arrays of cells.

const RULE = { left: ':---', right: '---:', center: ':---:' };

function cell(value) {
  if (value === null || value === undefined) return '';
  // A pipe would end the cell and a newline the row.
  return String(value).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function markdownTable(columns, rows) {
  for (const row of rows) {
    if (row.length !== columns.length) {
      throw Object.assign(new Error(`table row has ${row.length} cells, expected ${columns.length}`), { code: 'ETABLEWIDTH' });
    }
  }
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [
    line(columns.map((c) => cell(c.title))),
    line(columns.map((c) => RULE[c.align || 'left'])),
    ...rows.map((r) => line(r.map(cell))),
  ].join('\n') + '\n';
}

module.exports = { markdownTable };
