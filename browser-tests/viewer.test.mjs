// Browser tests of the pages `proxima demo` and `proxima view` write, in headless Chromium.
//
// Independent truth: the demo's own JSON output (summary and sampled trace lines), the closed
// forms of the near-pass scene (testdata/scenes/near-pass.json: which pair is within the
// margin in which cycles), and `proxima query`'s answer for the same workload query.
// Screenshots go to target/browser-tests/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { canvasStats, launch, open } from './lib/chromium.mjs';
import { OUT, ROOT, demo, jsonLines, proxima, sameDigits } from './lib/proxima.mjs';

let browser;
before(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  browser = await launch();
});
after(async () => { if (browser) await browser.close(); });

function assertClean(problems, what) {
  assert.deepEqual(problems.console, [], `${what}: console errors`);
  assert.deepEqual(problems.exceptions, [], `${what}: uncaught exceptions`);
  assert.deepEqual(problems.network, [], `${what}: network requests (the page must be self-contained)`);
}

// the amber of the closest pair, lit (factor 0.55..1 of #f0a81a = 240, 168, 26)
const AMBER = '(r, g, b) => r > 120 && g > 0.6 * r && g < 0.78 * r && b < 0.2 * r';
// the red of pairs under the margin (#e0453c = 224, 69, 60, lit)
const RED = '(r, g, b) => r > 110 && g < 0.4 * r && b < 0.4 * r';

describe('the default demo page', () => {
  let run, page, problems, loadMs;
  before(async () => {
    run = demo(path.join(OUT, 'demo'));
    ({ page, problems, loadMs } = await open(browser.context, run.page));
    console.log(`# demo page: ${(fs.statSync(run.page).size / 1e6).toFixed(2)} MB, first frame after ${loadMs} ms`);
  });

  test('is one self-contained file under 20 MB', () => {
    const size = fs.statSync(run.page).size;
    assert.ok(size < 20e6, `${size} bytes`);
    const html = fs.readFileSync(run.page, 'utf8');
    assert.ok(!/<script[^>]+src=|<link[^>]+href=|url\(http/i.test(html), 'no external script, style or image');
  });

  test('loads without console errors, exceptions or network requests', async () => {
    await page.screenshot({ path: path.join(OUT, 'demo-first-frame.png') });
    assertClean(problems, 'demo page');
  });

  test('the summary element carries the JSON summary minimum distance to 6 significant digits', async () => {
    const text = await page.locator('#summary').innerText();
    const m = text.match(/minimum distance ([0-9.eE+-]+)/);
    assert.ok(m, text);
    assert.ok(sameDigits(m[1], run.summary.min_distance, 6), `${m[1]} vs ${run.summary.min_distance}`);
    // and the full value, digit for digit
    const full = await page.locator('#summary').getAttribute('data-min-distance');
    assert.equal(Number(full), run.summary.min_distance);
  });

  test('the 3D canvas is not blank', async () => {
    const s = await canvasStats(page);
    // a blank or single-colour canvas has variance 0 and one colour; the cell shows a floor,
    // an arm, a fixture and the background
    assert.ok(s.variance > 50, JSON.stringify(s));
    assert.ok(s.colours > 40, JSON.stringify(s));
  });

  test('scrubbing the timeline shows the closest pair the demo reported for that cycle', async () => {
    const w25 = run.trace.filter((r) => r.scene === run.summary.details.main.scene);
    assert.ok(w25.length >= 8, 'the demo prints sampled trace lines');
    // the default run keeps every cycle as a frame, so frame k is cycle k
    assert.equal(await page.evaluate(() => window.proxima.data.views[0].timeline.stride), 1);
    const pairs = new Set();
    for (const rec of w25) {
      // scrub like a user: set the range input and fire its input event
      await page.evaluate((frame) => {
        const s = document.getElementById('scrubber');
        s.value = String(frame);
        s.dispatchEvent(new Event('input', { bubbles: true }));
      }, rec.cycle);
      const st = await page.evaluate(() => window.proxima.frameState());
      assert.equal(st.cycle, rec.cycle);
      assert.deepEqual(st.closest, rec.closest_pair, `cycle ${rec.cycle}`);
      assert.equal(st.distance, rec.min_distance, `cycle ${rec.cycle}`);
      const shown = await page.locator('#closest-pair').getAttribute('data-pair');
      assert.equal(shown, rec.closest_pair.join('|'));
      assert.match(await page.locator('#time-label').innerText(), new RegExp(`cycle ${rec.cycle} `));
      pairs.add(rec.closest_pair.join('|'));
      // the highlighted pair is drawn (thousands of pixels; none when the tint is off)
      await page.evaluate(() => window.proxima.renderNow());
      const s = await canvasStats(page, AMBER);
      assert.ok(s.hits > 1000, `cycle ${rec.cycle}: ${s.hits} highlighted pixels`);
    }
    assert.ok(pairs.size >= 2, `the closest pair changes over the run: ${[...pairs]}`);
    await page.screenshot({ path: path.join(OUT, 'demo-scrubbed.png') });
  });

  test('the minimum cycle is a frame and shows the minimum', async () => {
    const main = run.summary.details.main;
    await page.evaluate((c) => window.proxima.seekCycle(c), main.min_cycle);
    const st = await page.evaluate(() => window.proxima.frameState());
    assert.equal(st.cycle, main.min_cycle);
    assert.equal(st.distance, run.summary.min_distance);
    assert.deepEqual(st.closest, main.min_pair);
    await page.screenshot({ path: path.join(OUT, 'demo-minimum.png') });
  });

  test('dragging the slider with the mouse moves to that part of the run', async () => {
    const box = await page.locator('#scrubber').boundingBox();
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    const st = await page.evaluate(() => window.proxima.frameState());
    const frames = await page.evaluate(() => window.proxima.frames());
    // the thumb's travel is a few pixels shorter than the box: allow 3 %
    assert.ok(Math.abs(st.frame / (frames - 1) - 0.75) < 0.03, `frame ${st.frame} of ${frames}`);
  });

  test('play advances the frames, pause stops them', async () => {
    await page.evaluate(() => window.proxima.seekCycle(0));
    await page.click('#play');
    await page.waitForFunction(() => window.proxima.frameState().frame > 20, null, { timeout: 10000 });
    await page.click('#play');
    const a = await page.evaluate(() => window.proxima.frameState().frame);
    await page.waitForTimeout(300);
    const b = await page.evaluate(() => window.proxima.frameState().frame);
    assert.equal(a, b, 'paused');
    assert.equal(await page.locator('#play').innerText(), 'play');
  });

  test('clicking the distance plot jumps to that time', async () => {
    const cv = page.locator('#plot-distance');
    const box = await cv.boundingBox();
    const g = await page.evaluate(() => {
      const p = document.getElementById('plot-distance').plotGeometry;
      return { padL: p.padL / p.dpr, padR: p.padR / p.dpr, n: p.n };
    });
    const frac = 0.5;
    const x = box.x + g.padL + frac * (box.width - g.padL - g.padR);
    await page.mouse.click(x, box.y + box.height / 2);
    const st = await page.evaluate(() => window.proxima.frameState());
    assert.ok(Math.abs(st.cycle - frac * (g.n - 1)) <= 0.01 * g.n, `cycle ${st.cycle} of ${g.n}`);
  });

  test('the camera orbits when dragged', async () => {
    const before = await canvasStats(page);
    const box = await page.locator('#gl').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 5 });
    await page.mouse.up();
    await page.evaluate(() => window.proxima.renderNow());
    const after = await canvasStats(page);
    assert.notEqual(before.mean.toFixed(6), after.mean.toFixed(6), 'the image changed');
    await page.dblclick('#gl');
  });

  test("the page's own GJK agrees with the recorded certified distances", async () => {
    // The robot view computes distances in the page; here its GJK meets the library's answers
    // on the W25 hulls (boxes, prism polyhedra). Tolerance: poses are stored as f32 (≤ 6e-8
    // relative, ~1e-7 m at the arm's 2 m reach) and GJK stops at a 1e-12 relative gap: 1e-6 m.
    const rows = await page.evaluate(() => {
      const t = window.proxima.data.views[0].timeline, out = [];
      const pairs = window.proxima.data.views[0].pairs;
      for (let f = 0; f < window.proxima.frames(); f += 97) {
        window.proxima.setFrame(f);
        const s = window.proxima.frameState();
        const [i, j] = pairs[s.closestPair];
        const r = window.proxima.distance(i, j);
        out.push({ cycle: s.cycle, want: s.distance, got: r.distance, lower: r.lower, upper: r.upper });
      }
      return out;
    });
    assert.ok(rows.length >= 40);
    for (const r of rows) {
      assert.ok(Math.abs(r.got - r.want) <= 1e-6, JSON.stringify(r));
      assert.ok(r.lower <= r.got && r.got <= r.upper && r.upper - r.lower <= 1e-6, JSON.stringify(r));
    }
  });

  test('every run has a tab: the two Pandas (hull meshes) and the scaled scene replay too', async () => {
    const d = run.summary.details;
    const names = await page.locator('#tabs button').allInnerTexts();
    assert.deepEqual(names, [d.main.scene, d.robots.scene, d.scale.scene]);
    for (const [tab, s] of [[1, d.robots], [2, d.scale]]) {
      await page.locator('#tabs button').nth(tab).click();
      await page.evaluate((c) => window.proxima.seekCycle(c), s.min_cycle);
      const st = await page.evaluate(() => window.proxima.frameState());
      assert.equal(st.view, s.scene);
      assert.equal(st.distance, s.min_distance);
      assert.deepEqual(st.closest, s.min_pair);
      await page.evaluate(() => window.proxima.renderNow());
      assert.ok((await canvasStats(page)).variance > 50);
      await page.screenshot({ path: path.join(OUT, `demo-tab-${tab}.png`) });
    }
    // the Pandas' links are drawn as their exact hulls: meshes with hundreds of vertices
    const sizes = await page.evaluate(() => window.proxima.data.views[1].meshes.map((m) => m.positions ? m.positions.len / 3 : 0));
    assert.ok(sizes.filter((n) => n > 100).length >= 8, JSON.stringify(sizes));
    assertClean(problems, 'demo page after interaction');
  });
});

describe('pairs under the margin (near-pass scene)', () => {
  let run, page, problems;
  before(async () => {
    run = demo(path.join(OUT, 'near-pass'), ['--scene', path.join(ROOT, 'testdata/scenes/near-pass.json')]);
    ({ page, problems } = await open(browser.context, run.page));
  });

  test('the pairs under the 2 cm margin are exactly those of the closed forms, frame by frame', async () => {
    // slider–post: the box face 0.015 from the post while |x| ≤ 0.1, the corner distance
    // sqrt((|x| − 0.1)² + 0.115²) − 0.1 ≤ 0.02 up to |x| = 0.1343: cycles 37..63 (x = −0.5 + 0.01 c);
    // ball–post: sqrt(0.21² + y²) − 0.2 ≤ 0.02 for |y| ≤ 0.0656: cycles 144..156 (y = 1.5 − 0.01 c).
    // The nearest cycles outside are ≥ 1.3 mm beyond the margin, far above rounding.
    const expected = (c) => {
      const out = [];
      if (c >= 37 && c <= 63) out.push('post|slider');
      if (c >= 144 && c <= 156) out.push('post|ball');
      return out;
    };
    const got = await page.evaluate(() => {
      const out = [];
      for (let f = 0; f < window.proxima.frames(); f++) {
        window.proxima.setFrame(f);
        const s = window.proxima.frameState();
        out.push({ cycle: s.cycle, under: s.under.map((p) => p.join('|')).sort() });
      }
      return out;
    });
    assert.equal(got.length, 200);
    for (const { cycle, under } of got) assert.deepEqual(under, expected(cycle), `cycle ${cycle}`);
  });

  test('they are highlighted in the 3D view and listed, and not otherwise', async () => {
    for (const [cycle, listed] of [[50, ['post – slider']], [150, ['post – ball']], [100, []]]) {
      await page.evaluate((c) => { window.proxima.seekCycle(c); window.proxima.renderNow(); }, cycle);
      const s = await canvasStats(page, RED);
      const rows = await page.locator('#under-margin p.warn').allInnerTexts();
      assert.deepEqual(rows, listed, `cycle ${cycle}`);
      if (listed.length) assert.ok(s.hits > 1000, `cycle ${cycle}: ${s.hits} red pixels`);
      // (the witness segment is red only at or under the margin: a few hundred pixels)
      else assert.ok(s.hits < 20, `cycle ${cycle}: ${s.hits} red pixels without a pair under the margin`);
      await page.screenshot({ path: path.join(OUT, `near-pass-${cycle}.png`) });
    }
    assertClean(problems, 'near-pass page');
  });

  test("the page's GJK on the exact primitives (cylinder, box, sphere) matches every frame", async () => {
    const rows = await page.evaluate(() => {
      const pairs = window.proxima.data.views[0].pairs, out = [];
      for (let f = 0; f < window.proxima.frames(); f++) {
        window.proxima.setFrame(f);
        const s = window.proxima.frameState();
        const [i, j] = pairs[s.closestPair];
        out.push({ cycle: s.cycle, want: s.distance, got: window.proxima.distance(i, j).distance });
      }
      return out;
    });
    // f32 poses: ≤ 6e-8 relative at ~1.5 m; GJK gap 1e-12 relative; the cylinder's support is
    // its exact formula, not the drawn 32-gon (which would be off by up to 5e-4 here)
    for (const r of rows) assert.ok(Math.abs(r.got - r.want) <= 1e-6, JSON.stringify(r));
  });

  test('the closest pair follows the data: slider–post, then ball–post', async () => {
    for (const [cycle, pair] of [[50, ['post', 'slider']], [150, ['post', 'ball']]]) {
      await page.evaluate((c) => window.proxima.seekCycle(c), cycle);
      assert.deepEqual((await page.evaluate(() => window.proxima.frameState())).closest, pair);
    }
    const text = await page.locator('#summary').innerText();
    assert.ok(sameDigits(text.match(/minimum distance ([0-9.eE+-]+)/)[1], run.summary.min_distance));
  });
});

describe('proxima view --workload', () => {
  const workload = path.join(ROOT, 'testdata/geometry/tiny.json');
  const answers = jsonLines(proxima(['query', workload, '--format', 'jsonl']));

  for (const i of [1, 3, 6]) {
    test(`query ${i}: the page shows proxima query's distance, witnesses and bracket`, async () => {
      const file = path.join(OUT, `tiny-${i}.html`);
      proxima(['view', '--workload', workload, '--i', String(i), '--out', file]);
      const { page, problems } = await open(browser.context, file);
      const want = answers[i];
      assert.equal(want.status, 'ok');
      const a = await page.evaluate(() => window.proxima.data.views[0].annotation);
      assert.equal(a.distance, want.distance);
      assert.deepEqual([a.point_a, a.point_b], [want.p_a, want.p_b]);
      assert.deepEqual([a.lower, a.upper], [want.lower, want.upper]);
      const text = await page.locator('#summary').innerText();
      assert.ok(text.includes(`distance ${want.distance}`) || want.distance === 0, text);
      assert.ok(text.includes(`[${want.lower}, ${want.upper}]`), text);
      assert.ok((await canvasStats(page)).variance > 20);
      await page.screenshot({ path: path.join(OUT, `tiny-${i}.png`) });
      assertClean(problems, `query ${i} page`);
      await page.close();
    });
  }

  test('a bad query index is an input error (exit 2, one line)', () => {
    assert.throws(
      () => proxima(['view', '--workload', workload, '--i', '99', '--out', path.join(OUT, 'x.html')]),
      (e) => e.status === 2 && /--i 99/.test(e.stderr) && e.stderr.trim().split('\n').length === 1,
    );
  });
});

describe('proxima view --urdf (the Panda of testdata/robots)', () => {
  const urdf = path.join(ROOT, 'testdata/robots/panda/panda.urdf');
  const file = path.join(OUT, 'panda.html');
  let page, problems;
  // proxima check's certified distances for configuration q, by body pair "a|b"
  const check = (q) => {
    const [rec] = jsonLines(proxima(['check', '--urdf', urdf, '--q', q.join(','), '--all-pairs', '--format', 'json']));
    return rec;
  };
  // the page's distances at q, reduced to body pairs (a piece "link#k" belongs to body "link")
  const pageAt = async (q) => page.evaluate((q) => {
    window.proxima.setConfiguration(q);
    const v = window.proxima.data.views[0], s = window.proxima.frameState(), body = (n) => n.replace(/#\d+$/, '');
    const byBody = {};
    v.pairs.forEach(([i, j], p) => {
      const key = `${body(v.objects[i].name)}|${body(v.objects[j].name)}`;
      byBody[key] = Math.min(byBody[key] ?? Infinity, s.pairs[p]);
    });
    return { state: s, byBody };
  }, q);

  before(async () => {
    proxima(['view', '--urdf', urdf, '--out', file]);
    ({ page, problems } = await open(browser.context, file));
  });

  test("the summary's certified minimum is proxima check's at the first configuration", async () => {
    const q0 = await page.evaluate(() => {
      const r = window.proxima.data.views[0].robot, q = [];
      r.joints.forEach((j, k) => { if (j.coordinate !== null) q[j.coordinate] = r.initial[k]; });
      return q;
    });
    const want = check(q0);
    const text = await page.locator('#summary').innerText();
    const m = text.match(/minimum distance (-?[0-9.eE+-]+) m \(([^ ]+) – ([^)]+)\)/);
    assert.ok(m, text);
    assert.ok(sameDigits(m[1], want.min_distance, 6), `${m[1]} vs ${want.min_distance}`);
    assert.deepEqual([m[2], m[3]], want.pair);
    assert.equal(Number(await page.locator('#summary').getAttribute('data-min-distance')), want.min_distance);
  });

  test('moving the joints recomputes every pair as proxima check does (to 1e-6 m)', async () => {
    // within the Panda's limits; the last one brings link 5 and link 7 within 2.2 cm
    const configs = [
      [0, -0.785, 0, -2.356, 0, 1.571, 0.785, 0.04],
      [1.2, 0.4, -0.9, -1.2, 2.0, 0.8, -1.5, 0.01],
      [0.3, -0.5, 0.2, -2.0, 0.1, 1.8, 0.7, 0.02],
    ];
    for (const q of configs) {
      const want = check(q);
      const got = await pageAt(q);
      // f64 hull vertices and f64 kinematics on both sides; GJK stops at a 1e-12 relative gap
      for (const [key, d] of Object.entries(want.distances)) {
        assert.ok(key in got.byBody, `pair ${key} monitored by the page`);
        assert.ok(Math.abs(got.byBody[key] - Math.max(0, d)) <= 1e-6, `${key} at ${q}: page ${got.byBody[key]}, check ${d}`);
      }
      assert.equal(Object.keys(got.byBody).length, Object.keys(want.distances).length, 'the same pairs');
      assert.deepEqual(got.state.closest.map((n) => n.replace(/#\d+$/, '')), want.pair, `closest at ${q}`);
      assert.ok(got.state.lower <= got.state.distance && got.state.distance <= got.state.upper);
      assert.equal(await page.locator('#closest-pair').getAttribute('data-pair'), got.state.closest.join('|'));
    }
    await page.screenshot({ path: path.join(OUT, 'panda.png') });
  });

  test('a slider moves the robot and the pairs under the margin light up', async () => {
    await page.evaluate(() => window.proxima.setConfiguration([0, -0.785, 0, -2.356, 0, 1.571, 0.785, 0.04]));
    await page.evaluate(() => window.proxima.renderNow());
    const before = await canvasStats(page);
    // the fingers (0.04 open) are 0.0398 apart: closing them to 0.005 puts that pair within 2 cm
    const slider = page.locator('#joints input').last();
    await slider.evaluate((el) => { el.value = '0.005'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    const st = await page.evaluate(() => window.proxima.frameState());
    assert.ok(st.under.some((p) => p.join('|') === 'panda_leftfinger|panda_rightfinger'), JSON.stringify(st.under));
    const listed = await page.locator('#under-margin p.warn').allInnerTexts();
    assert.ok(listed.includes('panda_leftfinger – panda_rightfinger'), listed.join(', '));
    await page.evaluate(() => window.proxima.renderNow());
    const after = await canvasStats(page);
    assert.ok(after.variance > 50 && before.mean !== after.mean);
    await page.screenshot({ path: path.join(OUT, 'panda-fingers.png') });
    assertClean(problems, 'robot page');
  });
});

describe('proxima view --workload on a CCD workload (testdata/ccd)', () => {
  const workload = path.join(ROOT, 'testdata/ccd/public-slice.json');
  const answers = jsonLines(proxima(['query', workload, '--op', 'toi']));

  for (const i of [0, 30, 50, 10]) {
    test(`query ${i}: the sweep shows proxima query --op toi's answer, and no frame before it touches`, async () => {
      const want = answers[i];
      const file = path.join(OUT, `ccd-${i}.html`);
      proxima(['view', '--workload', workload, '--i', String(i), '--out', file]);
      const { page, problems } = await open(browser.context, file);
      const text = await page.locator('#summary').innerText();
      const v = await page.evaluate(() => window.proxima.data.views[0]);
      assert.equal(v.kind, 'sweep');
      if (want.outcome === 'hit') {
        assert.ok(text.includes(`time of impact ${want.toi} (proven bracket [t_safe, t_hit] = [${want.t_safe}, ${want.t_hit}])`), text);
        assert.deepEqual([v.annotation.point_a, v.annotation.point_b], [want.p_a, want.p_b]);
        assert.deepEqual(v.annotation.normal, want.normal);
        assert.equal(v.ghosts.filter((g) => g.label === 'impact').length, 2);
        assert.ok(v.timeline.markers.some((m) => m.label.startsWith('impact')));
      } else {
        assert.equal(want.outcome, 'miss');
        assert.ok(text.includes('no impact on [0, 1]'), text);
        assert.equal(v.annotation, null);
      }
      // Independent of the search: each frame's distance is its own certified query. Before
      // t_safe the motion is proven free, so no frame there may touch; after a miss, none.
      const frames = await page.evaluate(() => {
        const out = [];
        for (let f = 0; f < window.proxima.frames(); f++) {
          window.proxima.setFrame(f);
          const s = window.proxima.frameState();
          out.push({ t: s.time, d: s.distance });
        }
        return out;
      });
      const free = want.outcome === 'hit' ? want.t_safe : 1.0;
      for (const { t, d } of frames) if (t < free || want.outcome === 'miss') assert.ok(d > 0, `t = ${t}: distance ${d}`);
      assert.ok((await canvasStats(page)).variance > 20);
      await page.screenshot({ path: path.join(OUT, `ccd-${i}.png`) });
      assertClean(problems, `CCD page ${i}`);
      await page.close();
    });
  }
});
