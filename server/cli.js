'use strict';
// `node server [options]`: parses options, starts one server or a cluster of them, announces
// the URL, and shuts down gracefully on SIGINT/SIGTERM (exit 0). Bad options exit 2.

const cluster = require('node:cluster');
const fs = require('node:fs');
const { parseCli, normalizeOptions, helpText } = require('./config/options');
const { ConfigError } = require('./errors');
const { loggerFor } = require('./log/logger');
const { endQuietlyOnEpipe } = require('./log/closed-stdout');
const { loadCertificate } = require('./tls/certs');
const { startServer } = require('./engines/start-server');
const { runTrustCommand } = require('./tls/trust-command');
const { engineFor } = require('./engines/hpack-addon');
const { transportFor } = require('./engines/transport');
const { createEngines, warnUnavailable } = require('./compression/codings');
const { startBackgroundPrecompress } = require('./site/background-precompress');
const { watchRoot } = require('./site/watch-precompress');
const { runCacheCommand } = require('./site/cache-command');
const { startCacheUpkeep } = require('./site/cache-upkeep');
const { writeStarterConfig } = require('./config/starter-config');

const EXIT_BAD_OPTION = 2;

// Commands that run as written, from a shell in a project with the package installed.
const EXAMPLES = [
  ['negotiate-h2', 'serve the current directory on https://localhost:8443/'],
  ['negotiate-h2 site -p 8080', 'serve ./site on port 8080'],
  ['negotiate-h2 dist --spa --cors', 'a single-page app whose files other origins may fetch'],
  ['negotiate-h2 . --listing --watch', 'list folders without index.html; keep variants fresh on save'],
  ['negotiate-h2 site --log-format json', 'one JSON object a line on stdout (for jq)'],
  ['npx negotiate-h2 trust', 'make the browsers trust the local CA (once)'],
];

// `negotiate-h2 NAME ...` runs a subcommand; anything else serves a directory. Each resolves
// with the process's exit code.
const SUBCOMMANDS = {
  codings: {
    run: (argv, env) => require('../tools/codings-report/cli').main(argv, env),
    help: 'codings [dir] [--quick]   what each coding and level costs on dir\'s files; suggests the level flags',
  },
  precompress: {
    run: (argv) => require('../tools/precompress').main(argv, { command: 'negotiate-h2 precompress', requireDir: true }),
    help: 'precompress DIR [--codings LIST]   write .br/.zst/.gz/.lzma variants next to DIR\'s files (a build step; the server itself never writes into DIR)',
  },
  cache: {
    run: (argv, env) => runCacheCommand(argv, env).catch(fail),
    help: 'cache [list] | cache clean [DIR]   the --cache-dir folders of the roots served (size, last use), and their removal',
  },
  init: {
    run: (argv) => runInit(argv),
    help: 'init [DIR]                write a starter DIR/negotiate.config.json whose $schema resolves from DIR (never overwrites)',
  },
  trust: {
    run: (argv, env) => runTrustCommand('trust', argv, env).catch(fail),
    help: 'trust [--ca-dir DIR]      install the local CA into the browsers\' NSS databases',
  },
  untrust: {
    run: (argv, env) => runTrustCommand('untrust', argv, env).catch(fail),
    help: 'untrust [--ca-dir DIR]    remove the local CA from those databases',
  },
};

function fail(err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`negotiate-h2: ${err.message}\n`);
    process.exit(EXIT_BAD_OPTION);
  }
  process.stderr.write(`negotiate-h2: ${err.stack || err}\n`);
  process.exit(1);
}

// Exit codes as for the server's options: 2 for a usage error, 1 when the file exists or cannot be written.
function runInit(argv) {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    process.stdout.write(`usage: negotiate-h2 ${SUBCOMMANDS.init.help}\n`);
    return 0;
  }
  if (argv.length > 1 || argv[0]?.startsWith('-')) {
    process.stderr.write(`negotiate-h2 init: expected at most one directory, got ${argv.join(' ')}\nusage: negotiate-h2 ${SUBCOMMANDS.init.help}\n`);
    return EXIT_BAD_OPTION;
  }
  try {
    process.stdout.write(`wrote ${writeStarterConfig(argv[0] ?? '.')}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`negotiate-h2 init: ${err.message}\n`);
    return 1;
  }
}

function onSignals(handler) {
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

function usage() {
  const width = Math.max(...EXAMPLES.map(([command]) => command.length)) + 2;
  return `${helpText()}\nSubcommands (a directory of the same name: ./NAME):\n${Object.values(SUBCOMMANDS).map((s) => `  negotiate-h2 ${s.help}\n`).join('')}` +
    `\nExamples:\n${EXAMPLES.map(([command, what]) => `  ${command.padEnd(width)}${what}\n`).join('')}`;
}

async function main(argv, env) {
  if (Object.hasOwn(SUBCOMMANDS, argv[0])) {
    endQuietlyOnEpipe();
    process.exitCode = await SUBCOMMANDS[argv[0]].run(argv.slice(1), env);
    return;
  }
  let options;
  try {
    options = parseCli(argv, env);
    if (options.help || options.version) {
      endQuietlyOnEpipe();
      process.stdout.write(options.help ? usage() : `${require('../package.json').version}\n`);
      return;
    }
    options = normalizeOptions(options);
  } catch (err) {
    fail(err);
    return;
  }
  if (cluster.isPrimary && options.workers > 1) await runPrimary(options);
  else await runServer(options);
}

async function runServer(options) {
  const log = loggerFor(options);
  let server;
  try {
    server = await startServer({ ...options, logger: log });
  } catch (err) {
    await log.drain();
    fail(err);
    return;
  }
  let background = null;
  if (cluster.isWorker) process.send({ type: 'listening', url: server.url, httpUrl: server.httpUrl, lanUrls: server.lanUrls });
  else background = announce(log, server, options);
  if (server.metricsUrl !== null) log.always(`metrics on ${server.metricsUrl}`);
  onSignals(async () => {
    log.info('shutting down: finishing in-flight requests');
    background?.stop();
    await server.close();
    process.exit(0);
  });
}

// Once listening: the URL, then precompression of the root in the background (see
// background-precompress.js) and with --watch the watcher; returns { stop() } for both.
function announce(log, { url, httpUrl, lanUrls }, options) {
  log.always(`listening on ${url} (${options.https ? 'h2 and http/1.1' : 'http/1.1'})` + (httpUrl !== null ? `; ${httpUrl} redirects there` : ''));
  if (lanUrls.length > 0) log.always(`on the network: ${lanUrls.join(' ')}`);
  if (!options.https) log.warn('TLS is off (--no-tls): plain HTTP/1.1, unencrypted, for local development only');
  const precompress = {
    encodings: options.encodings,
    levels: options.precompressLevels,
    minBytes: options.minCompressBytes,
    cacheDir: options.cacheDir,
    cacheBytes: options.cacheBytes,
  };
  const initial = options.precompress ? startBackgroundPrecompress({ ...precompress, root: options.root, log }) : null;
  const watcher = options.watch ? watchRoot({ root: options.root, after: initial?.exited, precompress, log }) : null;
  const upkeep = startCacheUpkeep({ cacheDir: options.cacheDir, rootReal: fs.realpathSync(options.root), maxAgeDays: options.cacheMaxAgeDays, log });
  return {
    stop() {
      initial?.stop();
      watcher?.stop();
      upkeep.stop();
    },
  };
}

// Workers share the listening port through node:cluster; the certificate is made here first
// so that workers never race to generate it. The first worker starts alone: a bad option that
// only shows when listening (--host, --port) is then reported once, with its exit code 2.
async function runPrimary(options) {
  const log = loggerFor(options);
  try {
    if (options.https && !options.cert) await loadCertificate(options, log);
    // Said here once when the native engine or a coding cannot run, and which TLS transport
    // runs; the workers say nothing.
    if (engineFor(options.engine, log) === 'native' && options.https) transportFor(options.transport, log);
    warnUnavailable(createEngines(), options.encodings, log);
  } catch (err) {
    await log.drain();
    fail(err);
    return;
  }
  let ready = 0;
  let stopping = false;
  let background = null;
  const fork = () => cluster.fork().on('message', (msg) => {
    if (msg.type !== 'listening') return;
    if (++ready === 1) for (let i = 1; i < options.workers; i++) fork();
    if (ready === options.workers) background = announce(log, msg, options);
  });
  fork();
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      if (ready >= options.workers) {
        log.error(`worker ${worker.process.pid} exited (${signal || code})`);
        fork();
        return;
      }
      // A worker that dies before listening would die again: give up. A bad option was
      // already reported by the worker in one line.
      if (code !== EXIT_BAD_OPTION) log.error(`worker ${worker.process.pid} exited (${signal || code}) before listening`);
      stopping = true;
      process.exitCode = code === EXIT_BAD_OPTION ? EXIT_BAD_OPTION : 1;
      for (const w of Object.values(cluster.workers)) w.process.kill('SIGTERM');
    }
    if (Object.keys(cluster.workers).length === 0) log.drain().then(() => process.exit());
  });
  // Each worker reloads --cert/--key itself; the primary only passes the signal on.
  process.on('SIGHUP', () => {
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGHUP');
  });
  onSignals(() => {
    stopping = true;
    background?.stop();
    log.info('shutting down workers');
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
  });
}

module.exports = { main, EXAMPLES };
