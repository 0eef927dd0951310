// Size and load time of the default demo page (a measurement, not a test: the machine may be
// shared). Usage: node measure.mjs [PAGE] [--repeat N]. Without PAGE the default demo is run
// into target/browser-tests/measure/. Prints one JSON line; load time = navigation start to the
// first rendered 3D frame (data parsed, meshes uploaded, plots drawn), in a fresh tab each time.
import fs from 'node:fs';
import path from 'node:path';

import { launch, open } from './lib/chromium.mjs';
import { OUT, demo } from './lib/proxima.mjs';

const args = process.argv.slice(2);
const r = args.indexOf('--repeat');
const repeat = r >= 0 ? Number(args[r + 1]) : 5;
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--repeat') || demo(path.join(OUT, 'measure')).page;
const browser = await launch();
const times = [];
try {
  for (let k = 0; k < repeat; k++) {
    const { page, loadMs } = await open(browser.context, file);
    times.push(loadMs);
    await page.close();
  }
} finally {
  await browser.close();
}
const sorted = [...times].sort((a, b) => a - b);
console.log(JSON.stringify({
  page: file, bytes: fs.statSync(file).size, repeat,
  load_ms: { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1], all: times },
}));
