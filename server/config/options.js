'use strict';
// Applies the schema (schema.js) to what users write: the CLI (node:util parseArgs) and its
// NEGOTIATE_* environment twins, the site configuration file, and startServer()/handler()
// options. Precedence: CLI, then environment, then the configuration file, then the default.
// Every error names what the user wrote (flag, variable, file key or option key).

const path = require('node:path');
const { ConfigError } = require('../errors');
const { closest } = require('./did-you-mean');
const { readConfigFile } = require('../site/config-file');
const { compileHeaderRules } = require('../site/header-rules');
const { compileDictionaryRules } = require('../site/dictionary-rules');
const { SERVER, envName, negated, defaultOf } = require('./schema');
const { parseFlags, checkValue, applyEntries } = require('./flags');

const CLI = SERVER.filter((e) => e.flag !== undefined);

// CLI beats environment. Returns the keys the user set (camelCase, parsed), for normalizeOptions.
function parseCli(argv, env) {
  checkEnvNames(env);
  const raw = {};
  const labels = {};
  for (const entry of CLI) {
    const value = env[envName(entry)];
    if (value === undefined || entry.flag === 'help') continue;
    // NEGOTIATE_NO_DYNAMIC=1 means "no dynamic", like the flag.
    raw[entry.key] = entry.bool ? checkValue(entry, value, envName(entry)) !== negated(entry) : value;
    labels[entry.key] = envName(entry);
  }
  const flags = parseFlags(argv, CLI);
  if (flags.positionals.length > 1) throw new ConfigError(`one directory to serve, got "${flags.positionals[0]}" and "${flags.positionals[1]}"`);
  for (const [key, value] of Object.entries(flags.raw)) {
    raw[key] = value;
    labels[key] = `--${CLI.find((e) => e.key === key).flag}`;
  }
  if (flags.positionals.length === 1) {
    if (labels.root === '--root') throw new ConfigError(`give the directory either as "${flags.positionals[0]}" or with --root, not both`);
    raw.root = flags.positionals[0];
    labels.root = 'directory';
  }
  const out = {};
  for (const entry of CLI) {
    if (raw[entry.key] !== undefined) out[entry.key] = checkValue(entry, raw[entry.key], labels[entry.key]);
  }
  return out;
}

// A NEGOTIATE_* variable that is no option's twin is almost always a typo that would otherwise
// leave the server running with a setting the user believes changed.
function checkEnvNames(env) {
  const known = CLI.filter((e) => e.flag !== 'help').map(envName);
  for (const name of Object.keys(env)) {
    if (!name.startsWith('NEGOTIATE_') || known.includes(name)) continue;
    const hint = closest(name, known);
    throw new ConfigError(`${name}: unknown variable${hint !== null ? `; did you mean ${hint}?` : ' (see --help)'}`);
  }
}

// An option key no setting has is a typo that would otherwise be ignored.
function checkKeys(input) {
  const known = SERVER.filter((e) => e.flag !== 'help').map((e) => e.key);
  for (const key of Object.keys(input)) {
    if (known.includes(key) || key === 'help') continue;
    const hint = closest(key, known);
    throw new ConfigError(`${key}: unknown option${hint !== null ? `; did you mean ${hint}?` : ''}`);
  }
}

/**
 * startServer()/handler() options (or parseCli's output) checked, with the configuration file's
 * values below them and defaults for the rest. Accepts CLI strings or API values.
 */
function normalizeOptions(input = {}) {
  checkKeys(input);
  const raw = { ...input };
  const site = readConfigFile(path.resolve(raw.root ?? defaultOf('root')), raw.config ?? undefined, SERVER);
  const labels = {};
  for (const [key, value] of Object.entries(site.values)) {
    if (raw[key] !== undefined && raw[key] !== null) continue;
    raw[key] = value;
    labels[key] = `${site.label}: ${key}`;
  }
  for (const key of Object.keys(input)) labels[key] ??= SERVER.find((e) => e.key === key).flag !== undefined ? undefined : key;
  const out = applyEntries(SERVER, raw, labels);
  out.config = site.file ?? undefined;
  for (const [key, compile] of [['headers', compileHeaderRules], ['dictionaries', compileDictionaryRules]]) {
    try {
      compile(out[key]);
    } catch (err) {
      throw new ConfigError(labels[key] !== undefined ? `${site.label}: ${err.message}` : err.message);
    }
  }
  if (Boolean(out.cert) !== Boolean(out.key)) throw new ConfigError('--cert and --key go together');
  if (!out.https) {
    const tlsOnly = ['httpPort', 'cert'].find((key) => out[key] !== undefined);
    if (tlsOnly !== undefined) throw new ConfigError(`--${SERVER.find((e) => e.key === tlsOnly).flag} needs TLS and cannot go with --no-tls`);
  }
  out.root = path.resolve(out.root);
  return out;
}

/** --help: every entry with a flag, its environment twin and its default. */
function helpText() {
  const lines = ['Usage: negotiate-h2 [dir] [options]   (dir: the directory to serve, default the current one)', '', 'Options (each has the environment twin shown under it; flags win):'];
  for (const entry of CLI) {
    const left = `  --${entry.flag}${entry.arg ? ' ' + entry.arg : ''}`;
    const def = entry.def !== undefined && !entry.bool ? ` (default: ${entry.def})` : '';
    lines.push(`${left.padEnd(26)} ${entry.help}${def}`);
    if (entry.flag !== 'help') lines.push(`${''.padEnd(26)} env ${envName(entry)}`);
  }
  return lines.join('\n') + '\n';
}

module.exports = { parseCli, normalizeOptions, helpText };
