'use strict';
// The addons binding.gyp builds beside the HPACK one where the platform allows (the C transport,
// HTTP/3's QUIC transport): a local compile's build/Release/NAME.node first, as node-gyp-build
// does for the HPACK addon, else the one the package ships in prebuilds/PLATFORM-ARCH/addons/
// (scripts/build-prebuilds.js). Throws require()'s own error, naming the build/Release path, when
// neither is there.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');

function requirePlatformAddon(name) {
  const built = path.join(ROOT, 'build', 'Release', `${name}.node`);
  const shipped = path.join(ROOT, 'prebuilds', `${process.platform}-${process.arch}`, 'addons', `${name}.node`);
  return require(fs.existsSync(built) || !fs.existsSync(shipped) ? built : shipped);
}

module.exports = { requirePlatformAddon };
