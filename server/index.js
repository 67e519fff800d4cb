#!/usr/bin/env node
'use strict';
// Entry point: `node server [options]` runs the CLI; require('./server') gives the API.

const { startServer } = require('./engines/start-server');
const { handler, fastifyPlugin } = require('./engines/node/handler');
const { Logger } = require('./log/logger');

if (require.main === module) require('./cli').main(process.argv.slice(2), process.env);

module.exports = { startServer, handler, fastifyPlugin, Logger };
