#!/usr/bin/env node
'use strict';
// Writes static/photo.jpg, the demo's already-compressed asset: a dusk mountain scene
// painted on a canvas in headless Chromium and saved as JPEG. Film grain keeps it
// photo-like, so its entropy (and what br/gzip could not save) matches a real photo.
//   node docs/tools/render-demo-photo.js
const fs = require('node:fs/promises');
const path = require('node:path');
const { chromiumSkipReason, launchChromium } = require('../../test/helpers/browser');

const OUTPUT = path.resolve(__dirname, '..', '..', 'static', 'photo.jpg');
const WIDTH = 1200;
const HEIGHT = 400;
const JPEG_QUALITY = 72;

// Runs inside the page. Seeded so every run paints the same scene.
function paint({ width, height }) {
  let seed = 0x2f6b1d3;
  const random = () => {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  document.body.style.margin = '0';
  document.body.append(canvas);
  const ctx = canvas.getContext('2d');

  const sky = ctx.createLinearGradient(0, 0, 0, height);
  sky.addColorStop(0, '#0d1b3d');
  sky.addColorStop(0.45, '#3d3a78');
  sky.addColorStop(0.72, '#c8607a');
  sky.addColorStop(0.9, '#f6a65a');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, width, height);

  for (let i = 0; i < 260; i++) {
    const y = random() * height * 0.5;
    ctx.globalAlpha = (1 - y / (height * 0.5)) * random();
    ctx.fillStyle = '#fff';
    ctx.fillRect(random() * width, y, 1.4, 1.4);
  }
  ctx.globalAlpha = 1;

  const sunX = width * 0.68;
  const sunY = height * 0.66;
  const glow = ctx.createRadialGradient(sunX, sunY, 4, sunX, sunY, height * 0.9);
  glow.addColorStop(0, 'rgba(255,236,190,0.95)');
  glow.addColorStop(0.06, 'rgba(255,200,130,0.6)');
  glow.addColorStop(0.4, 'rgba(240,120,110,0.12)');
  glow.addColorStop(1, 'rgba(0,0,0,0)');
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, width, height);

  // Midpoint displacement: each ridge is rougher and darker the nearer it is.
  function ridge(base, roughness, amplitude) {
    const n = 257;
    const h = new Float32Array(n);
    h[0] = base + (random() - 0.5) * amplitude;
    h[n - 1] = base + (random() - 0.5) * amplitude;
    for (let step = n - 1, amp = amplitude; step > 1; step >>= 1, amp *= roughness) {
      for (let i = step >> 1; i < n; i += step) {
        h[i] = (h[i - (step >> 1)] + h[i + (step >> 1)]) / 2 + (random() - 0.5) * amp;
      }
    }
    return h;
  }
  const layers = [
    { base: 0.62, rough: 0.52, amp: 0.22, top: '#6a4f86', bottom: '#8d5d82' },
    { base: 0.7, rough: 0.55, amp: 0.2, top: '#46365f', bottom: '#5c4067' },
    { base: 0.78, rough: 0.58, amp: 0.16, top: '#2a2442', bottom: '#352a4a' },
    { base: 0.88, rough: 0.6, amp: 0.12, top: '#15142a', bottom: '#1b1830' },
  ];
  for (const layer of layers) {
    const h = ridge(layer.base * height, layer.rough, layer.amp * height);
    const fill = ctx.createLinearGradient(0, height * (layer.base - layer.amp), 0, height);
    fill.addColorStop(0, layer.top);
    fill.addColorStop(1, layer.bottom);
    ctx.beginPath();
    ctx.moveTo(0, height);
    for (let i = 0; i < h.length; i++) ctx.lineTo((i / (h.length - 1)) * width, h[i]);
    ctx.lineTo(width, height);
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.fill();
  }

  const image = ctx.getImageData(0, 0, width, height);
  const px = image.data;
  for (let i = 0; i < px.length; i += 4) {
    const grain = (random() - 0.5) * 26;
    px[i] += grain; px[i + 1] += grain; px[i + 2] += grain;
  }
  ctx.putImageData(image, 0, 0);
}

async function main() {
  const skip = await chromiumSkipReason();
  if (skip) throw new Error(skip);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    await page.evaluate(paint, { width: WIDTH, height: HEIGHT });
    const jpeg = await page.screenshot({ type: 'jpeg', quality: JPEG_QUALITY });
    await fs.writeFile(OUTPUT, jpeg);
    console.log(`wrote ${path.relative(process.cwd(), OUTPUT)} (${jpeg.length} bytes, ${WIDTH}x${HEIGHT})`);
  } finally {
    await browser.close();
  }
}

main().catch((err) => { console.error(err.message); process.exitCode = 1; });
