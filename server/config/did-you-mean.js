'use strict';
// "Did you mean" suggestions for misspelt option names, variables and configuration keys.

// Edit distance counting a swap of adjacent characters as one edit (optimal string alignment):
// NEGOTIATE_PROT is one edit from NEGOTIATE_PORT.
function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

// The name in `known` closest to `name`, or null when none is within 3 edits.
function closest(name, known) {
  const best = known.map((k) => [editDistance(name, k), k]).sort((a, b) => a[0] - b[0])[0];
  return best && best[0] <= 3 ? best[1] : null;
}

module.exports = { closest };
