#!/usr/bin/env node
'use strict';
// Writes the option tables of docs/configuration.md from server/config/schema.js, the one place
// every setting is declared, so the reference cannot drift from the server:
//   node docs/tools/config-reference.js          rewrite the generated blocks
//   node docs/tools/config-reference.js --check  exit 1 if a committed block is stale
//   ... [--check] FILE                           another copy of the page (the tests use this)
// A block sits between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`.
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DOC = path.join(REPO_ROOT, 'docs', 'configuration.md');

// Defaults under the user's home (the CA's config directory) are computed when schema.js
// loads: a fixed home and no XDG variables make them the same on every machine.
const HOME = '/nonexistent-home';
process.env.HOME = HOME;
for (const name of Object.keys(process.env)) if (name.startsWith('XDG_')) delete process.env[name];

const { SERVER, PRECOMPRESS, envName, negated } = require('../../server/config/schema');

const MiB = 1024 * 1024;

function code(text) {
  return '`' + text + '`';
}

// Table cells: a `|` would end the cell.
function cell(text) {
  return String(text).replace(/\|/g, '\\|');
}

function portablePath(file) {
  if (file.startsWith(HOME + path.sep)) return '~' + file.slice(HOME.length);
  if (file === REPO_ROOT || file.startsWith(REPO_ROOT + path.sep)) return '<package>' + file.slice(REPO_ROOT.length);
  return file;
}

function shownDefault(def) {
  if (def === undefined) return '';
  if (Array.isArray(def)) return code(def.length === 0 ? '[]' : def.join(','));
  if (typeof def === 'object') return code(JSON.stringify(def).replace(/"/g, '').replace(/,/g, ', '));
  if (typeof def === 'string' && path.isAbsolute(def)) return code(portablePath(def));
  if (typeof def === 'number' && def >= MiB && def % MiB === 0) return `${code(def)} (${def / MiB} MiB)`;
  return code(String(def));
}

function flagCell(entry) {
  if (entry.flag === undefined) return entry.key === 'dir' ? '`[dir]`' : '—';
  return code(`--${entry.flag}${entry.arg ? ` ${entry.arg}` : ''}${entry.multiple ? ' ...' : ''}`);
}

function row(cells) {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function serverTable() {
  const lines = [
    row(['Flag', 'Environment', 'Key', 'Default', 'Meaning']),
    row(['---', '---', '---', '---', '---']),
  ];
  for (const entry of SERVER) {
    if (entry.flag === 'help') continue;
    const env = entry.flag === undefined ? '—' : code(envName(entry) + (entry.bool ? '=1' : ''));
    const where = entry.flag !== undefined ? (entry.file === false ? ' (not in the file)' : '')
      : (entry.file === false ? ' (API only)' : ' (file and API only)');
    const key = code(entry.key) + where;
    const flag = entry.flag === 'root' ? '`[dir]`, `--root DIR`' : flagCell(entry);
    const def = entry.bool && negated(entry) ? `${code(String(entry.def))} (the flag sets ${code(entry.key)} to false)` : shownDefault(entry.def);
    lines.push(row([flag, env, key, def, entry.help]));
  }
  return lines.join('\n');
}

function precompressTable() {
  const lines = [row(['Flag', 'Default', 'Meaning']), row(['---', '---', '---'])];
  for (const entry of PRECOMPRESS) {
    if (entry.flag === undefined && entry.key !== 'dir') continue;
    lines.push(row([flagCell(entry), entry.bool ? '' : shownDefault(entry.def), entry.help]));
  }
  return lines.join('\n');
}

const BLOCKS = { server: serverTable, precompress: precompressTable };

/** `text` with every generated block rendered afresh; throws when a block's markers are missing. */
function render(text) {
  let out = text;
  for (const [name, make] of Object.entries(BLOCKS)) {
    const open = `<!-- generated:${name} -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start === -1 || end < start) throw new Error(`no ${open} ... ${close} block`);
    out = `${out.slice(0, start + open.length)}\n${make()}\n${out.slice(end)}`;
  }
  return out;
}

function main(argv) {
  const doc = argv.find((arg) => !arg.startsWith('--')) ?? DOC;
  const current = fs.readFileSync(doc, 'utf8');
  const fresh = render(current);
  const relative = path.relative(process.cwd(), doc);
  if (argv.includes('--check')) {
    if (fresh !== current) {
      console.error(`${relative} is stale: run node docs/tools/config-reference.js${doc === DOC ? '' : ' ' + relative}`);
      return 1;
    }
    console.log(`${relative} is current`);
    return 0;
  }
  if (fresh === current) {
    console.log(`${relative} is current`);
  } else {
    fs.writeFileSync(doc, fresh);
    console.log(`wrote ${relative}`);
  }
  return 0;
}

if (require.main === module) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error(err.message);
    process.exitCode = 2;
  }
}
