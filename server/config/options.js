'use strict';
// Applies the schema (schema.js) to what users write: the CLI (node:util parseArgs) and its
// NEGOTIATE_* environment twins, the site configuration file, and startServer()/handler()
// options. Precedence: CLI, then environment, then the configuration file, then the default.
// Every error names what the user wrote: the flag (or variable) on the command line, the key in
// the configuration file, the option key in the API. The options carry those names under
// LABELS, so that the errors found later (a root that is no directory, a port in use) name
// them too: optionName(options, key).

const path = require('node:path');
const { ConfigError } = require('../errors');
const { closest } = require('./did-you-mean');
const { readConfigFile } = require('./config-file');
const { compileHeaderRules } = require('./header-rules');
const { compileDictionaryRules } = require('./dictionary-rules');
const { SERVER, envName, negated, defaultOf } = require('./schema');
const { parseFlags, checkValue, applyEntries } = require('./flags');

const CLI = SERVER.filter((e) => e.flag !== undefined);
// Symbol-keyed: spread along with the options, never taken for an option key.
const LABELS = Symbol('option labels');

/** How the user wrote `key` of these options: a flag, a variable, a file's key, or the key. */
function optionName(options, key) {
  return options[LABELS]?.[key] ?? key;
}

/** How the user would switch the bool `key` of these options to `value`: the flag that does
 * (--no-tls, --listing), its variable set to 1, or the key and value. */
function switchName(options, key, value) {
  const name = optionName(options, key);
  if (name.startsWith('--')) return name;
  return name.startsWith('NEGOTIATE_') ? `${name}=1` : `${name}: ${value}`;
}

// CLI beats environment. Returns the keys the user set (camelCase, parsed), for normalizeOptions;
// their names (a flag by default, for settings left to it) are under LABELS.
function parseCli(argv, env) {
  checkEnvNames(env);
  const raw = {};
  const labels = Object.fromEntries(CLI.map((e) => [e.key, `--${e.flag}`]));
  for (const entry of CLI) {
    const value = env[envName(entry)];
    if (value === undefined || entry.command) continue;
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
    if (flags.raw.root !== undefined) throw new ConfigError(`give the directory either as "${flags.positionals[0]}" or with --root, not both`);
    raw.root = flags.positionals[0];
    labels.root = 'directory';
  }
  const out = { [LABELS]: labels };
  for (const entry of CLI) {
    if (raw[entry.key] !== undefined) out[entry.key] = checkValue(entry, raw[entry.key], labels[entry.key]);
  }
  return out;
}

// A NEGOTIATE_* variable that is no option's twin is almost always a typo that would otherwise
// leave the server running with a setting the user believes changed.
function checkEnvNames(env) {
  const known = CLI.filter((e) => !e.command).map(envName);
  for (const name of Object.keys(env)) {
    if (!name.startsWith('NEGOTIATE_') || known.includes(name)) continue;
    const hint = closest(name, known);
    throw new ConfigError(`${name}: unknown variable${hint !== null ? `; did you mean ${hint}?` : ' (see --help)'}`);
  }
}

// An option key no setting has is a typo that would otherwise be ignored.
function checkKeys(input) {
  const known = SERVER.filter((e) => !e.command).map((e) => e.key);
  for (const key of Object.keys(input)) {
    if (known.includes(key) || SERVER.some((e) => e.command && e.key === key)) continue;
    const hint = closest(key, known);
    throw new ConfigError(`${key}: unknown option${hint !== null ? `; did you mean ${hint}?` : ''}`);
  }
}

/**
 * startServer()/handler() options (or parseCli's output) checked, with the configuration file's
 * values below them and defaults for the rest. Accepts CLI strings or API values.
 * middleware: for handler() and fastifyPlugin, whose defaults differ (middlewareDef in schema.js).
 */
function normalizeOptions(input = {}, { middleware = false } = {}) {
  checkKeys(input);
  const raw = { ...input };
  const labels = { ...input[LABELS] };
  const site = readConfigFile(path.resolve(raw.root ?? defaultOf('root')), raw.config ?? undefined, SERVER, labels.config ?? 'config');
  const fromFile = new Set();
  for (const [key, value] of Object.entries(site.values)) {
    if (raw[key] !== undefined && raw[key] !== null) continue;
    raw[key] = value;
    labels[key] = `${site.label}: ${key}`;
    fromFile.add(key);
  }
  for (const key of Object.keys(input)) labels[key] ??= key;
  if (middleware) {
    for (const entry of SERVER) if (entry.middlewareDef !== undefined) raw[entry.key] ??= entry.middlewareDef;
  }
  const out = applyEntries(SERVER, raw, labels);
  out[LABELS] = labels;
  out.config = site.file ?? undefined;
  for (const [key, compile] of [['headers', compileHeaderRules], ['dictionaries', compileDictionaryRules]]) {
    try {
      compile(out[key]);
    } catch (err) {
      throw new ConfigError(fromFile.has(key) ? `${site.label}: ${err.message}` : err.message);
    }
  }
  if (Boolean(out.cert) !== Boolean(out.key)) throw new ConfigError(`${optionName(out, 'cert')} and ${optionName(out, 'key')} go together`);
  if (!out.https) {
    const tlsOnly = ['httpPort', 'cert'].find((key) => out[key] !== undefined);
    if (tlsOnly !== undefined) throw new ConfigError(`${optionName(out, tlsOnly)} needs TLS and cannot go with ${switchName(out, 'https', false)}`);
  }
  // Each worker would count alone, and scrapes would reach one at random.
  if (out.metrics !== undefined && out.workers > 1) throw new ConfigError(`${optionName(out, 'metrics')} counts one process and cannot go with ${optionName(out, 'workers')} ${out.workers}`);
  out.root = path.resolve(out.root);
  return out;
}

/** --help: every entry with a flag, its environment twin and its default. */
function helpText() {
  const lines = ['Usage: negotiate-h2 [dir] [options]   (dir: the directory to serve, default the current one)', '', 'Options (each has the environment twin shown under it; flags win):'];
  for (const entry of CLI) {
    const left = `  ${entry.short !== undefined ? `-${entry.short}, ` : ''}--${entry.flag}${entry.arg ? ' ' + entry.arg : ''}${entry.multiple ? ' ...' : ''}`;
    const def = entry.def !== undefined && !entry.bool ? ` (default: ${entry.def})` : '';
    lines.push(`${left.padEnd(26)} ${entry.help}${def}`);
    if (!entry.command) lines.push(`${''.padEnd(26)} env ${envName(entry)}`);
  }
  return lines.join('\n') + '\n';
}

module.exports = { parseCli, normalizeOptions, helpText, optionName, switchName, LABELS };
