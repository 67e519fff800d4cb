'use strict';
// Runs a script under valgrind memcheck and returns what concerns one addon: its stdout, exit
// code, and every report (an error, or a definitely or indirectly lost block) whose stack passes
// through `addon`. The rest are Node's and OpenSSL's own, such as per-thread state.

const fsp = require('node:fs/promises');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { commandPath } = require('./tools');
const { makeTempDir } = require('./server');

// OpenSSL's AES-GCM assembly (QUIC's Retry tokens) reads as uninitialised to memcheck whatever
// calls it.
const OPENSSL_OWN = /ossl_gcm_stream_final/;

async function memcheck(script, { addon = 'transport.node', timeoutMs }) {
  const dir = await makeTempDir('memcheck-');
  try {
    const log = path.join(dir, 'memcheck.log');
    const result = await new Promise((resolve) => {
      execFile(commandPath('valgrind'), ['--leak-check=full', '--show-leak-kinds=definite,indirect', '--num-callers=40',
        `--log-file=${log}`, process.execPath, script],
      { timeout: timeoutMs }, (err, stdout) => resolve({ code: err ? err.code : 0, stdout }));
    });
    const text = await fsp.readFile(log, 'utf8');
    // Node keeps the bookkeeping of napi_create_external until the external is collected, which
    // a process exit does not wait for: that record is Node's, whatever called it.
    const reports = text.split(/\n==\d+== \n/).filter((r) => r.includes(addon) && !/napi_create_external/.test(r) && !OPENSSL_OWN.test(r));
    return { ...result, reports };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

module.exports = { memcheck };
