'use strict';
// The files the server benchmark serves, built from real text and code that
// `npm install` puts in node_modules (so every clone gets the same bytes):
//   index.html  ~3.5 KB page rendered from the negotiator README
//   app.js      ~200 KB of concatenated node-forge sources
//   style.css   ~40 KB of Playwright's HTML report stylesheet
//   icon.png    an already-compressed 400x400 PNG
//   lorem_ipsum.txt  five paragraphs of lorem ipsum, about the size (3,484
//               bytes) of the file the seed article measured (bench/server/seed.js)
// Two roots: "variants" with the project's precompressed .br/.gz/.zst/.lzma
// files next to each original, "plain" with the originals only (on-the-fly).
const fs = require('node:fs/promises');
const path = require('node:path');

const { VARIANT_EXTENSIONS } = require('../../server/compression/codings');
const { isCompressibleName } = require('../../server/files/tree-walk');

const REPO = path.resolve(__dirname, '..', '..');
const MODULES = path.join(REPO, 'node_modules');

const FILES = {
  html: { name: 'index.html', build: buildHtml },
  js: { name: 'app.js', build: buildJs },
  css: { name: 'style.css', build: buildCss },
  image: { name: 'icon.png', build: () => readSource('playwright-core/lib/server/chromium/appIcon.png') },
  lorem: { name: 'lorem_ipsum.txt', build: async () => buildLorem() },
};
// Whether the server compresses a file: by its own rule, not a second list.
for (const spec of Object.values(FILES)) spec.compressible = isCompressibleName(spec.name);

async function readSource(rel) {
  try {
    return await fs.readFile(path.join(MODULES, rel));
  } catch (err) {
    throw Object.assign(new Error(`corpus source node_modules/${rel} is missing (${err.code}); run npm install`),
      { code: 'ECORPUSSOURCE' });
  }
}

const escapeHtml = (s) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

// Markdown to HTML elements: enough of it for a README's headings, prose
// and code fences (badges and link references are dropped).
function markdownBlocks(md) {
  const inline = (t) => escapeHtml(t).replace(/`([^`]+)`/g, '<code>$1</code>');
  const blocks = [];
  let para = [];
  let code = null;
  const endPara = () => {
    const text = para.join(' ').trim();
    para = [];
    if (text && !/^\[!\[|^\[[^\]]+\]:/.test(text)) blocks.push(`<p>${inline(text)}</p>`);
  };
  for (const line of md.split('\n')) {
    if (code !== null) {
      if (line.startsWith('```')) {
        blocks.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
        code = null;
      } else code.push(line);
      continue;
    }
    const heading = /^(#{1,5})\s+(.*)$/.exec(line);
    if (line.startsWith('```') || heading || !line.trim()) endPara();
    if (line.startsWith('```')) code = [];
    else if (heading) {
      const level = Math.min(6, heading[1].length + 1);
      blocks.push(`<h${level}>${inline(heading[2])}</h${level}>`);
    } else if (line.trim()) para.push(line.trim());
  }
  endPara();
  return blocks;
}

async function buildHtml() {
  const TARGET = 3500;
  const head = '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    + '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
    + '<title>negotiator: HTTP content negotiation</title>\n<link rel="stylesheet" href="/style.css">\n</head>\n'
    + '<body>\n<header><nav><a href="/">Home</a> <a href="/docs/">Docs</a> <a href="/api/">API</a></nav></header>\n<main>\n';
  const tail = '</main>\n<footer><p>Text from the negotiator README (MIT licence).</p></footer>\n'
    + '<script src="/app.js" defer></script>\n</body>\n</html>\n';
  let body = '';
  for (const block of markdownBlocks((await readSource('negotiator/README.md')).toString('utf8'))) {
    if (Buffer.byteLength(head + body + block + tail) > TARGET) break;
    body += `${block}\n`;
  }
  return Buffer.from(head + body + tail);
}

async function buildJs() {
  const TARGET = 200 * 1024;
  const dir = path.join(MODULES, 'node-forge', 'lib');
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.js')).sort();
  const parts = [];
  let size = 0;
  // Whole files only, skipping any that would overshoot the target by much.
  for (const name of names) {
    const src = await fs.readFile(path.join(dir, name));
    if (size + src.length > TARGET * 1.02) continue;
    parts.push(Buffer.from(`\n/* node-forge/lib/${name} */\n`), src);
    size += src.length;
    if (size > TARGET * 0.98) break;
  }
  return Buffer.concat(parts);
}

// The stylesheet is minified onto one line: cut it at the last top-level rule
// that ends before the target size so the result is still valid CSS.
async function buildCss() {
  const TARGET = 40 * 1024;
  const css = (await readSource('playwright-core/lib/vite/htmlReport/report.css')).toString('utf8');
  let depth = 0;
  let cut = 0;
  for (let i = 0; i < css.length && i < TARGET; i++) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) cut = i + 1;
  }
  return Buffer.from(`${css.slice(0, cut)}\n`);
}

// Lorem ipsum as generators make it: words drawn from the classic text (by a
// fixed-seed LCG, so every run serves the same bytes), sentences of 6-14
// words, five paragraphs of whole sentences within the seed's 3,484 bytes.
const LOREM_WORDS = ('lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et '
  + 'dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo '
  + 'consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint '
  + 'occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum').split(' ');
function buildLorem(target = 3484, paragraphs = 5) {
  let seed = 20151105;
  const next = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 16) % n;
  };
  const sentence = () => {
    const words = Array.from({ length: 6 + next(9) }, () => LOREM_WORDS[next(LOREM_WORDS.length)]);
    return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
  };
  const share = Math.floor(target / paragraphs) - 2; // each paragraph ends with a blank line
  const out = [];
  for (let p = 0; p < paragraphs; p++) {
    let para = sentence();
    for (let s = sentence(); para.length + 1 + s.length <= share; s = sentence()) para += ` ${s}`;
    out.push(para);
  }
  return Buffer.from(`${out.join('\n\n')}\n`);
}

// precompress(dir) must write the variants next to the originals in dir.
async function buildCorpus(tmpDir, { precompress }) {
  const roots = { variants: path.join(tmpDir, 'variants'), plain: path.join(tmpDir, 'plain') };
  await Promise.all(Object.values(roots).map((d) => fs.mkdir(d, { recursive: true })));
  const files = {};
  for (const [key, spec] of Object.entries(FILES)) {
    const bytes = await spec.build();
    await Promise.all(Object.values(roots).map((d) => fs.writeFile(path.join(d, spec.name), bytes)));
    files[key] = { key, name: spec.name, compressible: spec.compressible, bytes };
  }
  await precompress(roots.variants);
  return { roots, files };
}

// Size of the precompressed variant the variants root holds for a coding.
async function variantSize(root, name, coding) {
  if (!Object.hasOwn(VARIANT_EXTENSIONS, coding)) return null;
  try {
    return (await fs.stat(path.join(root, name + VARIANT_EXTENSIONS[coding]))).size;
  } catch {
    return null;
  }
}

// Rows that fetch several corpus files in turn, as a browser loading a page.
const MIXES = {
  page: { name: 'page (4 files)', files: ['html', 'css', 'js', 'image'] },
};
// The corpus files a row's file key stands for.
const filesOf = (key) => MIXES[key]?.files ?? [key];

module.exports = {
  buildCorpus, variantSize, filesOf, FILE_KEYS: [...Object.keys(FILES), ...Object.keys(MIXES)], FILES, MIXES,
};
