'use strict';
// node bench/memory/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot [--top 15]
// What a heap kept between two snapshots (bench/memory/run.js --heap-snapshots): live objects
// counted and sized by constructor name, the names whose count or self size grew most first.
// Per-connection or per-key state that outlives its connection shows up here as a name whose
// count grows with the rounds.
const fs = require('node:fs');
const { parseArgs } = require('node:util');

function countByName(file) {
  const { snapshot: { meta }, nodes, strings } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const fields = meta.node_fields;
  const width = fields.length;
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const types = meta.node_types[0];
  const counts = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const kind = types[nodes[i + type]];
    if (kind !== 'object' && kind !== 'closure' && kind !== 'native') continue;
    const key = `${strings[nodes[i + name]]} (${kind})`;
    const entry = counts.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += nodes[i + size];
    counts.set(key, entry);
  }
  return counts;
}

const { positionals: [before, after], values } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '15' } } });
if (after === undefined) {
  console.error('usage: node bench/memory/heap-diff.js BEFORE.heapsnapshot AFTER.heapsnapshot [--top N]');
  process.exitCode = 2;
} else {
  const a = countByName(before);
  const b = countByName(after);
  const rows = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
    const x = a.get(key) ?? { count: 0, bytes: 0 };
    const y = b.get(key) ?? { count: 0, bytes: 0 };
    return { name: key, count: y.count, countDelta: y.count - x.count, bytesDelta: y.bytes - x.bytes };
  });
  rows.sort((p, q) => q.bytesDelta - p.bytesDelta || q.countDelta - p.countDelta);
  console.table(rows.slice(0, Number(values.top)));
}
