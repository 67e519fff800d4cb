'use strict';
// Glob patterns of the site configuration's header rules, compiled to regular expressions over
// a path relative to the root without its leading slash ("assets/app.1f3a.js"):
//   *       any run of characters within one segment (no "/")
//   **      any number of whole segments, none included ("**/x.js" matches "x.js")
//   ?       one character other than "/"
//   {a,b}   either alternative (alternatives may hold globs, and nest)
// Everything else matches itself. A leading "/" is allowed and ignored. No negation or classes:
// a pattern that would need them is better written as two rules.
// Patterns are matched only against the paths of files that exist (when file-store.js builds a
// file's metadata), never against a request's made-up path, so a client cannot feed several
// "**" a path long enough to make the regular expression backtrack for long.

function compileGlob(pattern) {
  if (typeof pattern !== 'string' || pattern === '') throw new Error('must be a non-empty glob string');
  const source = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  let i = 0;
  let depth = 0;
  let out = '';
  while (i < source.length) {
    const c = source[i];
    if (c === '*' && source[i + 1] === '*') {
      const atStart = i === 0 || source[i - 1] === '/';
      const atEnd = i + 2 === source.length || source[i + 2] === '/';
      if (!atStart || !atEnd) throw new Error(`"**" must be a whole path segment in "${pattern}"`);
      if (i + 2 === source.length) {
        out += '.*';
        i += 2;
      } else {
        out += '(?:[^/]*/)*';
        i += 3;
      }
      continue;
    }
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') { out += '(?:'; depth++; }
    else if (c === '}' && depth > 0) { out += ')'; depth--; }
    else if (c === ',' && depth > 0) out += '|';
    else out += c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    i++;
  }
  if (depth !== 0) throw new Error(`unclosed "{" in "${pattern}"`);
  return new RegExp(`^${out}$`, 's');
}

module.exports = { compileGlob };
