'use strict';
// `negotiate-h2 trust` and `negotiate-h2 untrust [--ca-dir DIR]`: the local CA into or out of
// the browsers' NSS databases, plus the commands for the system stores.

const os = require('node:os');
const { parseCli, normalizeOptions } = require('../config/options');
const { ConfigError } = require('../errors');
const { Logger } = require('../log/logger');
const { loadOrCreateCa, readCa, caFiles } = require('./local-ca');
const { trust, untrust, systemStoreCommands } = require('./trust-store');

const COMMANDS = ['trust', 'untrust'];

// Resolves the exit code: 0 when every database took the change, 1 when one failed.
async function runTrustCommand(command, argv, env) {
  // Server options would be silently ignored here: refuse them like unknown ones.
  const extra = Object.keys(parseCli(argv, {})).filter((key) => key !== 'caDir');
  if (extra.length > 0) throw new ConfigError(`usage: negotiate-h2 ${command} [--ca-dir DIR]`);
  const { caDir } = normalizeOptions(parseCli(argv, env));
  const out = (line) => process.stdout.write(line + '\n');
  const log = new Logger({ level: 'info' });
  let ca;
  if (command === 'trust') {
    ca = await loadOrCreateCa(caDir, log);
    await log.drain();
  } else {
    ca = await readCa(caDir).catch((err) => {
      if (err.code === 'ENOENT') throw new ConfigError(`--ca-dir: no local CA in ${caFiles(caDir).certFile}: nothing to untrust`);
      throw err;
    });
  }
  out(`${command === 'trust' ? 'trusting' : 'untrusting'} "${ca.name}" (${ca.certFile})`);
  const lines = await (command === 'trust' ? trust : untrust)(ca, os.homedir());
  for (const line of lines) out(`  ${line}`);
  if (command === 'trust') out('Restart the browsers to pick it up.');
  out(`Not done (needs root or another OS); to ${command} it in the system store:`);
  for (const line of systemStoreCommands(ca, command)) out(`  ${line}`);
  return lines.some((line) => line.startsWith('FAILED')) ? 1 : 0;
}

module.exports = { runTrustCommand, COMMANDS };
