// Headless Chromium from the system (Debian's `chromium` package), driven by playwright-core:
// no browser is downloaded. Every page load records console errors, uncaught exceptions and
// any request that is not to a file: or data: URL (the pages must work offline).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';

// The flags that work on this machine: no sandbox (CI runs as root), no GPU (SwiftShader's
// WebGL2 instead, opted in explicitly so Chromium does not warn about the fallback), and no
// background traffic of any kind.
export const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

export async function launch() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_BIN`);
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'proxima-chromium-'));
  // a persistent context is how playwright takes a fresh --user-data-dir
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// Opens `file` and waits for the first 3D frame; returns the page, what went wrong on it, and
// the time from navigation to the first rendered frame.
export async function open(context, file) {
  const page = await context.newPage();
  const problems = { console: [], exceptions: [], network: [] };
  page.on('console', (m) => { if (m.type() === 'error') problems.console.push(m.text()); });
  page.on('pageerror', (e) => problems.exceptions.push(e.message));
  page.on('request', (r) => {
    if (!/^(file|data|blob):/.test(r.url())) problems.network.push(r.url());
  });
  const start = Date.now();
  await page.goto('file://' + path.resolve(file));
  await page.waitForFunction(() => Number(document.body.dataset.rendered) > 0, null, { timeout: 30000 });
  const loadMs = Date.now() - start;
  return { page, problems, loadMs };
}

// Statistics of the WebGL canvas computed in the page: luminance mean and variance, distinct
// colours (4 bits per channel), and how many pixels `predicate` (source text of a function
// (r, g, b) => bool) accepts.
export async function canvasStats(page, predicate = '() => false') {
  return page.evaluate((src) => {
    const accept = eval(src);
    const c = document.getElementById('gl');
    const t = document.createElement('canvas');
    t.width = c.width; t.height = c.height;
    const ctx = t.getContext('2d');
    ctx.drawImage(c, 0, 0);
    const d = ctx.getImageData(0, 0, t.width, t.height).data;
    let sum = 0, sum2 = 0, hits = 0;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4) {
      const y = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
      sum += y; sum2 += y * y;
      colours.add((d[i] >> 4) << 8 | (d[i + 1] >> 4) << 4 | d[i + 2] >> 4);
      if (accept(d[i], d[i + 1], d[i + 2])) hits++;
    }
    const n = d.length / 4, mean = sum / n;
    return { pixels: n, mean, variance: sum2 / n - mean * mean, colours: colours.size, hits };
  }, predicate);
}
