'use strict';
// Memory and CPU of a process group (a server and every process it forks:
// cluster workers, nginx workers), read from /proc.
//
// Peak RSS is the sum over all processes ever seen of their VmHWM. The group
// is re-scanned every intervalMs because a process's VmHWM is gone once it
// exits, so short-lived workers are only counted if a sample caught them.
// CPU time is utime+stime; a process that exits keeps its last sampled value.
const fs = require('node:fs/promises');

const CLK_TCK = 100; // USER_HZ: fixed at 100 on Linux for /proc/<pid>/stat

// Fields of /proc/<pid>/stat after the parenthesised command name, which may
// itself contain spaces and parentheses.
function parseStat(text) {
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): pgrp is field 5, utime 14, stime 15.
  return { pgrp: Number(rest[2]), cpuTicks: Number(rest[11]) + Number(rest[12]) };
}

function parseStatusKb(text, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

async function readOrNull(file) {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null; // the process exited between listing and reading
  }
}

class ProcessGroupSampler {
  constructor(pgid, { intervalMs = 200 } = {}) {
    this.pgid = pgid;
    this.intervalMs = intervalMs;
    this.procs = new Map(); // pid -> { hwmKb, cpuTicks }
    this.peakConcurrentRssKb = 0;
    this.timer = null;
    this.pending = null;
  }

  async sample() {
    let concurrentKb = 0;
    const pids = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
    await Promise.all(pids.map(async (pid) => {
      const stat = await readOrNull(`/proc/${pid}/stat`);
      if (!stat) return;
      const { pgrp, cpuTicks } = parseStat(stat);
      if (pgrp !== this.pgid) return;
      const status = await readOrNull(`/proc/${pid}/status`);
      if (!status) return;
      const seen = this.procs.get(pid) || { hwmKb: 0, cpuTicks: 0 };
      seen.hwmKb = Math.max(seen.hwmKb, parseStatusKb(status, 'VmHWM'));
      seen.cpuTicks = Math.max(seen.cpuTicks, cpuTicks);
      this.procs.set(pid, seen);
      concurrentKb += parseStatusKb(status, 'VmRSS');
    }));
    this.peakConcurrentRssKb = Math.max(this.peakConcurrentRssKb, concurrentKb);
  }

  start() {
    const tick = () => {
      this.pending = this.sample().finally(() => {
        if (this.timer !== null) this.timer = setTimeout(tick, this.intervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
    return this;
  }

  // A reading now: use two of these around a measured period for CPU deltas.
  async snapshot() {
    await this.sample();
    return this.totals();
  }

  totals() {
    let hwmKb = 0;
    let cpuTicks = 0;
    for (const p of this.procs.values()) {
      hwmKb += p.hwmKb;
      cpuTicks += p.cpuTicks;
    }
    return {
      processes: this.procs.size,
      peakRssBytes: hwmKb * 1024,
      peakConcurrentRssBytes: this.peakConcurrentRssKb * 1024,
      cpuSeconds: cpuTicks / CLK_TCK,
    };
  }

  // Takes a last sample (the group must still be alive) and stops sampling.
  async stop() {
    clearTimeout(this.timer);
    this.timer = null;
    await this.pending;
    await this.sample();
    return this.totals();
  }
}

module.exports = { ProcessGroupSampler, parseStat, parseStatusKb };
