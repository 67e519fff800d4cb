// Entry point of the demo page: set up the comparison panel, measure how this visit was
// delivered, then the dictionary delta. Everything it shows comes from this server, nothing is canned.
import { askServer } from './js/negotiate.js';
import { measureAssets, pageProtocol } from './js/measure.js';
import { renderVisit } from './js/visit-view.js';
import { initCompare } from './js/compare-view.js';
import { measureDelta } from './js/delta.js';
import { renderDelta } from './js/delta-view.js';
import { setSectionState } from './js/dom.js';

const MANIFEST_URL = '/assets.json';

async function loadManifest() {
  const response = await fetch(MANIFEST_URL);
  if (!response.ok) throw new Error(`${MANIFEST_URL} answered ${response.status}`);
  return response.json();
}

// Resource Timing sizes are final only once every subresource (the photo last) has loaded.
function pageLoaded() {
  return document.readyState === 'complete'
    ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
}

async function reportVisit(section, manifest) {
  setSectionState(section, 'loading', 'Measuring…');
  await pageLoaded();
  const documentAsset = manifest.assets.find((a) => a.document);
  const [rows, echo] = await Promise.all([
    measureAssets(manifest.assets),
    // Without `ae` the endpoint echoes this request's own Accept-Encoding.
    askServer(documentAsset.path).catch((err) => ({ error: err })),
  ]);
  renderVisit(section, {
    protocol: pageProtocol(),
    acceptEncoding: echo.error ? `unknown (${echo.error.code})` : echo.acceptEncoding,
    documentReason: echo.error ? echo.error.message : echo.reason,
    rows,
  });
  const failed = rows.filter((row) => row.error);
  if (failed.length) {
    setSectionState(section, 'error', failed.map((row) => row.error).join('; '));
  } else {
    setSectionState(section, 'ready');
  }
}

// After the visit's own measurements: the scripts it loads are not the page's assets.
async function reportDelta(section, pair) {
  try {
    renderDelta(section, pair, await measureDelta(pair));
  } catch (err) {
    setSectionState(section, 'error', `Could not measure the delta: ${err.message}`);
  }
}

async function main() {
  const visit = document.getElementById('visit');
  const delta = document.getElementById('delta');
  const compare = document.getElementById('compare');
  let manifest;
  try {
    manifest = await loadManifest();
  } catch (err) {
    setSectionState(visit, 'error', `Could not load the asset list: ${err.message}`);
    setSectionState(delta, 'error', `Could not load the asset list: ${err.message}`);
    return;
  }
  initCompare(compare, manifest);
  try {
    await reportVisit(visit, manifest);
  } catch (err) {
    setSectionState(visit, 'error', `Could not measure this visit: ${err.message}`);
  }
  await reportDelta(delta, manifest.delta);
}

main();
