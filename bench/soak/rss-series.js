'use strict';
// RSS of a process group once per interval: the sum of VmRSS over its live processes
// (what it holds now) and the sum of their VmHWM (each process's peak so far).
const fs = require('node:fs/promises');
const { parseStat, parseStatusKb } = require('../lib/proc-sampler');

async function readOrNull(file) {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null; // exited between listing and reading
  }
}

async function groupMemory(pgid) {
  let rssKb = 0;
  let hwmKb = 0;
  let processes = 0;
  const pids = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  await Promise.all(pids.map(async (pid) => {
    const stat = await readOrNull(`/proc/${pid}/stat`);
    if (!stat || parseStat(stat).pgrp !== pgid) return;
    const status = await readOrNull(`/proc/${pid}/status`);
    if (!status) return;
    processes++;
    rssKb += parseStatusKb(status, 'VmRSS');
    hwmKb += parseStatusKb(status, 'VmHWM');
  }));
  return { rssBytes: rssKb * 1024, hwmBytes: hwmKb * 1024, processes };
}

// Samples every intervalMs from start() until stop(); stop() resolves
// [{ t (seconds since start), rssBytes, hwmBytes, processes }].
function recordRss(pgid, { intervalMs = 1000 } = {}) {
  const samples = [];
  const started = performance.now();
  let timer = null;
  let pending = Promise.resolve();
  const tick = () => {
    pending = groupMemory(pgid).then((m) => {
      samples.push({ t: Math.round((performance.now() - started) / 100) / 10, ...m });
    }).finally(() => {
      if (timer !== null) timer = setTimeout(tick, intervalMs);
    });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      clearTimeout(timer);
      timer = null;
      await pending;
      return samples;
    },
  };
}

module.exports = { recordRss };
