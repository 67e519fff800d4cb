'use strict';
// --listing: an HTML index of a directory that has no index.html. Directories first, then
// files, each group sorted by name (code points, so the order is the same on every machine);
// dotfiles, the site configuration and precompressed variants of listed files are left out,
// as are symlinks leading out of the root. Names are HTML-escaped and links percent-encoded.

const fs = require('node:fs/promises');
const path = require('node:path');
const { variantOf } = require('../compression/compressibility');
const { isInside } = require('../files/resolve-path');
const { isDotName } = require('../http/request-path');
const { response } = require('../decision/representation');

// A directory larger than this is listed in part, with a line saying so: building the page
// costs a stat per entry.
const MAX_ENTRIES = 5000;

// dir: the store's { kind: 'dir', real }; rel: its normalised path ("/a/b" or "/");
// hidden(real): whether a file is kept from clients (the site configuration).
async function listDirectory(rootReal, dir, rel, isHead, hidden) {
  const names = (await fs.readdir(dir.real)).filter((n) => !isDotName(n));
  const present = new Set(names);
  const candidates = names
    .filter((n) => !present.has(variantOf(n)))
    .sort(byCodePoint);
  const shown = candidates.slice(0, MAX_ENTRIES);
  const entries = (await Promise.all(shown.map((name) => describe(rootReal, path.join(dir.real, name), name, hidden)))).filter((e) => e !== null);
  entries.sort((a, b) => (a.dir !== b.dir ? (a.dir ? -1 : 1) : byCodePoint(a.name, b.name)));

  const title = `Index of ${escapeHtml(rel === '/' ? '/' : `${rel}/`)}`;
  const rows = entries.map((e) => {
    const href = `./${encodeURIComponent(e.name)}${e.dir ? '/' : ''}`;
    return `<tr><td><a href="${href}">${escapeHtml(e.name)}${e.dir ? '/' : ''}</a></td><td>${e.dir ? '-' : e.size}</td></tr>`;
  });
  const more = candidates.length > MAX_ENTRIES ? `<p>${candidates.length - MAX_ENTRIES} more entries not listed.</p>\n` : '';
  const html = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head><body>\n<h1>${title}</h1>\n` +
    `<table>\n<tr><th>Name</th><th>Size (bytes)</th></tr>\n${rel === '/' ? '' : '<tr><td><a href="../">../</a></td><td>-</td></tr>\n'}` +
    `${rows.join('\n')}${rows.length > 0 ? '\n' : ''}</table>\n${more}</body></html>\n`;
  const body = Buffer.from(html);
  const headers = { 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length), 'cache-control': 'no-cache' };
  return response(200, headers, isHead ? null : body);
}

// { name, dir, size }, or null for what is not served: a broken symlink, one leading out of the
// root, anything but a file or directory, the hidden configuration.
async function describe(rootReal, file, name, hidden) {
  try {
    const real = await fs.realpath(file);
    if (!isInside(rootReal, real) || hidden(real)) return null;
    const st = await fs.stat(real);
    if (st.isDirectory()) return { name, dir: true, size: 0 };
    return st.isFile() ? { name, dir: false, size: st.size } : null;
  } catch {
    return null;
  }
}

function byCodePoint(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' };

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

module.exports = { listDirectory };
