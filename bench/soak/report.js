'use strict';
// The soak run's section of bench/results/README.md (see bench/lib/results-readme.js).
const { markdownTable } = require('../../tools/report/markdown-table');
const { rssChart } = require('./rss-chart');

const MiB = 1024 * 1024;
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

const title = 'Soak: memory and correctness under sustained mixed load';

function renderSection(section, { chartsHref }) {
  const v = section.verdict;
  const md = [
    `**${v.pass ? 'PASS' : 'FAIL'}**${v.reasons.length ? `: ${v.reasons.join('; ')}` : ''}. ${section.durationS} s of wrk (HTTPS/1.1) and h2load (HTTP/2) `
      + 'with every coding, on-the-fly lzma/br/zstd/gzip of files without variants, and clients aborting mid-body.',
    '',
    markdownTable([{ title: 'measure' }, { title: 'value', align: 'right' }], [
      [`peak RSS, first ${v.windowS} s`, mib(v.firstWindowPeakRssBytes)],
      [`peak RSS, last ${v.windowS} s`, mib(v.lastWindowPeakRssBytes)],
      ['growth (limit)', `${(v.rssGrowth * 100).toFixed(1)}% (${v.tolerance * 100}%)`],
      ['wrk requests (errors)', `${section.load.wrk.requests} (${section.load.wrk.errors.total})`],
      ['h2load requests (failed)', `${section.load.h2load.requests} (${section.load.h2load.errors.total})`],
      ['checked responses: ok / failed / corrupt', `${section.checker.ok} / ${section.checker.failed} / ${section.checker.corrupt}`],
      ['aborted downloads', String(section.aborter.aborted)],
    ]),
    '',
    `![server RSS over the soak run](${chartsHref}/soak-rss.svg)`,
  ];
  return {
    markdown: `${md.join('\n')}\n`,
    charts: { 'soak-rss.svg': rssChart({ title: 'Server RSS during the soak run', samples: section.rssSamples, windowS: v.windowS }) },
  };
}

module.exports = { title, renderSection };
