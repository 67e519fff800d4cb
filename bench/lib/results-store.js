'use strict';
// Results files: bench/results/<YYYY-MM-DD>-<host>.json, one per machine and
// day, holding one section per benchmark kind ("server", "hpack", ...) so that
// each benchmark can rewrite its own section without touching the others.
//
// { schema: 1, date, host, machine: {...}, sections: { <kind>: { command,
//   startedAt, finishedAt, tools: {...}, ...kind-specific } } }
const fs = require('node:fs/promises');
const path = require('node:path');

const SCHEMA = 1;
const RESULTS_DIR = path.resolve(__dirname, '..', 'results');
const FILE_RE = /^(\d{4}-\d{2}-\d{2})-(.+)\.json$/;

function localDate(d = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function resultsFileName(date, host) {
  return `${date}-${host.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

async function readJsonOrNull(file) {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw Object.assign(new Error(`cannot read results file ${file}: ${err.message}`), { code: 'ERESULTSREAD' });
  }
}

// Writes (or replaces) one kind's section in today's file for this machine.
async function saveSection(kind, section, { machine, dir = RESULTS_DIR, date = localDate() }) {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, resultsFileName(date, machine.host));
  const doc = (await readJsonOrNull(file)) || { schema: SCHEMA, date, host: machine.host, sections: {} };
  doc.machine = machine;
  doc.sections[kind] = section;
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(doc, null, 2)}\n`);
  await fs.rename(tmp, file);
  return file;
}

// Every results file in dir, oldest first: [{ file, doc }].
async function loadResults(dir = RESULTS_DIR) {
  let names;
  try {
    names = await fs.readdir(dir);
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  const docs = [];
  for (const name of names.filter((n) => FILE_RE.test(n)).sort()) {
    const doc = await readJsonOrNull(path.join(dir, name));
    if (doc && doc.schema === SCHEMA && doc.sections) docs.push({ file: name, doc });
  }
  return docs;
}

// Newest section of each kind: Map kind -> { file, doc, section }. Files are
// dated per day, so ties between files are broken by the section's finish time.
function latestSections(results) {
  const latest = new Map();
  for (const entry of results) {
    for (const [kind, section] of Object.entries(entry.doc.sections)) {
      const prev = latest.get(kind);
      const key = `${entry.doc.date} ${section.finishedAt || ''}`;
      if (!prev || key >= prev.key) latest.set(kind, { ...entry, section, key });
    }
  }
  return latest;
}

module.exports = { RESULTS_DIR, saveSection, loadResults, latestSections, resultsFileName, localDate };
