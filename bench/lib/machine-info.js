'use strict';
// What a result was measured on: CPU, kernel and the versions of the tools
// involved, so figures from different machines are not compared blindly.
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');

function machineInfo() {
  const cpus = os.cpus();
  return {
    host: os.hostname(),
    cpuModel: cpus.length ? cpus[0].model.trim() : 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

// First line of `cmd args` (stdout or stderr: nginx -v prints to stderr)
// matching re, or null when the tool is missing.
function toolVersion(cmd, args, re) {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 5000 }, (err, stdout, stderr) => {
      const m = re.exec(`${stdout}\n${stderr}`);
      resolve(m ? m[1] : null);
    });
  });
}

// The command that produced a result, as typed: through npm when npm started
// the run, else the node invocation.
function commandLine() {
  const args = process.argv.slice(2).join(' ');
  const event = process.env.npm_lifecycle_event;
  if (event) return `npm run ${event}${args ? ` -- ${args}` : ''}`;
  return `node ${path.relative(process.cwd(), process.argv[1])}${args ? ` ${args}` : ''}`;
}

module.exports = { machineInfo, toolVersion, commandLine };
