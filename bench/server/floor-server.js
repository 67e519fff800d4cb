'use strict';
// A floor server (bench/server/floor-tls.js or floor-native-tls.js) started for one run, with the
// Node flags `npm start` gives our server.
const path = require('node:path');
const { startExternalServer } = require('./external-server');
const { NODE_FLAGS } = require('./project-server');

function startFloor({ script, tmpDir, pin, root, cert, key }) {
  return startExternalServer({
    name: path.basename(script, '.js'),
    tmpDir,
    pin,
    configure: (prefix, port) => [process.execPath, [...NODE_FLAGS, path.join(__dirname, script),
      '--root', root, '--port', String(port), '--cert', cert, '--key', key]],
  });
}

module.exports = { startFloor };
