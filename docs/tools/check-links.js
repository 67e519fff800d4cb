#!/usr/bin/env node
'use strict';
// Checks the relative links of the user documentation: every `[text](target)` of README.md,
// docs/*.md and the pages they lead to in the repository must name an existing file and, for a
// `#anchor`, a heading of that page (anchors made as GitHub makes them).
//   node docs/tools/check-links.js     list broken links, exit 1 if there are any
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

// Fenced blocks and code spans hold examples, not links.
function withoutCode(markdown) {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`]*`/g, '');
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a page offers: its headings' slugs, repeats numbered -1, -2, ... as GitHub does. */
function anchors(markdown) {
  const seen = new Map();
  const out = new Set();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** The link targets of a page that point into the repository (no scheme, not a mail address). */
function relativeLinks(markdown) {
  const targets = [];
  for (const match of withoutCode(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    targets.push(target);
  }
  return targets;
}

/**
 * Broken links of `files` (paths relative to `root`), following links to other Markdown pages
 * of the repository so that every page reached is checked too.
 * @returns {string[]} one line per broken link: "page: target (why)"
 */
function brokenLinks(files, root = REPO_ROOT) {
  const problems = [];
  const queue = [...files];
  const checked = new Set();
  const anchorCache = new Map();
  const anchorsOf = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchors(fs.readFileSync(path.join(root, file), 'utf8')));
    return anchorCache.get(file);
  };
  while (queue.length > 0) {
    const page = queue.shift();
    if (checked.has(page)) continue;
    checked.add(page);
    const markdown = fs.readFileSync(path.join(root, page), 'utf8');
    for (const target of relativeLinks(markdown)) {
      const [rawPath, anchor] = target.split('#', 2);
      const file = rawPath === '' ? page : path.normalize(path.join(path.dirname(page), decodeURIComponent(rawPath)));
      if (file.startsWith('..') || path.isAbsolute(file)) {
        problems.push(`${page}: ${target} (outside the repository)`);
        continue;
      }
      const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
      if (stat === undefined) {
        problems.push(`${page}: ${target} (no such file)`);
        continue;
      }
      const isPage = stat.isFile() && file.endsWith('.md');
      if (anchor !== undefined && !(isPage && anchorsOf(file).has(anchor))) {
        problems.push(`${page}: ${target} (no heading for #${anchor} in ${file})`);
        continue;
      }
      if (isPage) queue.push(file);
    }
  }
  return problems;
}

/** README.md and every page of docs/. */
function userDocs(root = REPO_ROOT) {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

if (require.main === module) {
  const problems = brokenLinks(userDocs());
  for (const line of problems) console.error(line);
  if (problems.length === 0) console.log('every relative link resolves');
  process.exitCode = problems.length === 0 ? 0 : 1;
}

module.exports = { slug, anchors, relativeLinks, brokenLinks, userDocs };
