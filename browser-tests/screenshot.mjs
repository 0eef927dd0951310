// Regenerates the README's screenshot, docs/images/viewer-demo.png: the default demo page on
// the two-Panda cell (else the first run) at its minimum-distance cycle. Usage:
// node screenshot.mjs [PAGE].
import path from 'node:path';

import { launch, open } from './lib/chromium.mjs';
import { OUT, ROOT, demo } from './lib/proxima.mjs';

const file = process.argv[2] || demo(path.join(OUT, 'screenshot')).page;
const browser = await launch();
try {
  const { page } = await open(browser.context, file);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => {
    const k = Math.max(0, window.proxima.data.views.findIndex((v) => /panda/i.test(v.name)));
    window.proxima.selectView(k);
    window.proxima.seekCycle(window.proxima.data.views[k].timeline.minimum.cycle);
    window.proxima.renderNow();
  });
  await page.waitForTimeout(200);
  const out = path.join(ROOT, 'docs/images/viewer-demo.png');
  await page.screenshot({ path: out, fullPage: true });
  console.log(out);
} finally {
  await browser.close();
}
