'use strict';
// The project's server (node server/ CLI) started on port 0 for one run; it
// prints its URL when it is ready to accept connections. Log level "error":
// "silent" would also suppress that line, "info" would add an access log.
const { scripts } = require('../../package.json');
const { spawnGroup, stopGroup, waitForLine } = require('../lib/process-group');

// The Node flags `npm start` gives the server (V8 heap sizing), so the benchmark
// measures the process users run.
const NODE_FLAGS = scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));

// engine is passed only to servers that have --engine (caps.engineOption);
// without caps (the soak benchmark) the server runs its default engine.
// --no-precompress: the corpus's variants are the benchmark's to make, and a background run
// would compete with the measurement for the cores.
// metrics: HOST:PORT for --metrics (bench:h3 reads the QPACK counters there).
function serverArgs({ serverDir, root, workers, brotliEngine, engine, transport, metrics, cert, key, caps = { engineOption: false } }) {
  const args = [...NODE_FLAGS, serverDir, '--root', root, '--port', '0', '--host', '127.0.0.1', '--log-level', 'error',
    '--cert', cert, '--key', key, '--no-precompress'];
  if (workers > 1) args.push('--workers', String(workers));
  if (brotliEngine) args.push('--brotli-engine', brotliEngine);
  if (caps.engineOption) args.push('--engine', engine);
  if (transport) args.push('--transport', transport);
  if (metrics) args.push('--metrics', metrics);
  return args;
}

// The server reads NEGOTIATE_* settings from its environment; the benchmark
// measures its defaults and the flags above, whatever the shell exported.
const serverEnv = (env) => Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('NEGOTIATE_')));

async function startProjectServer({ pin, ...options }) {
  const [cmd, cmdArgs] = pin(process.execPath, serverArgs(options));
  const child = spawnGroup(cmd, cmdArgs, { env: serverEnv(process.env) });
  let line;
  try {
    line = await waitForLine(child, /https:\/\//, { what: 'server', timeoutMs: 20000 });
  } catch (err) {
    await stopGroup(child);
    throw err;
  }
  child.stdout.resume();
  child.stderr.resume();
  const url = new URL(/https:\/\/\S+/.exec(line)[0]);
  return {
    url: `https://127.0.0.1:${url.port}/`,
    pgid: child.pid,
    stop: () => stopGroup(child),
  };
}

module.exports = { startProjectServer, serverArgs, serverEnv, NODE_FLAGS };
