// Proxima viewer: draws the page's JSON (see proxima-viewer's model.rs) with plain WebGL2.
// Sections: typed arrays, small matrix maths, GL programs and buffers, camera, colours,
// views (objects, frames, robot kinematics), drawing, plots, controls, test hooks.
'use strict';
(function () {
  const DATA = JSON.parse(document.getElementById('proxima-data').textContent);
  const $ = (id) => document.getElementById(id);

  // ---------- typed arrays (little-endian, base64) ----------
  function decode(e) {
    if (!e) return null;
    const bin = atob(e.b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const Type = { f32: Float32Array, f64: Float64Array, u32: Uint32Array, i32: Int32Array }[e.dtype];
    return new Type(bytes.buffer, 0, e.len);
  }

  // ---------- matrices: 4×4 column-major ----------
  const M = {
    identity() { const m = new Float64Array(16); m[0] = m[5] = m[10] = m[15] = 1; return m; },
    // [tx, ty, tz, qx, qy, qz, qw] → matrix
    fromPose(p, o = 0, out = new Float64Array(16)) {
      const x = p[o + 3], y = p[o + 4], z = p[o + 5], w = p[o + 6];
      out[0] = 1 - 2 * (y * y + z * z); out[1] = 2 * (x * y + z * w); out[2] = 2 * (x * z - y * w); out[3] = 0;
      out[4] = 2 * (x * y - z * w); out[5] = 1 - 2 * (x * x + z * z); out[6] = 2 * (y * z + x * w); out[7] = 0;
      out[8] = 2 * (x * z + y * w); out[9] = 2 * (y * z - x * w); out[10] = 1 - 2 * (x * x + y * y); out[11] = 0;
      out[12] = p[o]; out[13] = p[o + 1]; out[14] = p[o + 2]; out[15] = 1;
      return out;
    },
    mul(a, b, out = new Float64Array(16)) {
      for (let c = 0; c < 4; c++) {
        for (let r = 0; r < 4; r++) {
          out[4 * c + r] = a[r] * b[4 * c] + a[4 + r] * b[4 * c + 1] + a[8 + r] * b[4 * c + 2] + a[12 + r] * b[4 * c + 3];
        }
      }
      return out;
    },
    point(m, x, y, z) {
      return [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
    },
    perspective(fovy, aspect, near, far) {
      const f = 1 / Math.tan(fovy / 2), m = new Float64Array(16);
      m[0] = f / aspect; m[5] = f; m[10] = (far + near) / (near - far); m[11] = -1; m[14] = 2 * far * near / (near - far);
      return m;
    },
    lookAt(eye, target, up) {
      const z = norm(sub(eye, target)), x = norm(cross(up, z)), y = cross(z, x), m = new Float64Array(16);
      m[0] = x[0]; m[4] = x[1]; m[8] = x[2]; m[12] = -dot(x, eye);
      m[1] = y[0]; m[5] = y[1]; m[9] = y[2]; m[13] = -dot(y, eye);
      m[2] = z[0]; m[6] = z[1]; m[10] = z[2]; m[14] = -dot(z, eye);
      m[15] = 1;
      return m;
    },
    // rotation by angle about a unit axis (Rodrigues), as a matrix
    axisAngle(u, a) {
      const c = Math.cos(a), s = Math.sin(a), t = 1 - c, [x, y, z] = u, m = M.identity();
      m[0] = t * x * x + c; m[1] = t * x * y + s * z; m[2] = t * x * z - s * y;
      m[4] = t * x * y - s * z; m[5] = t * y * y + c; m[6] = t * y * z + s * x;
      m[8] = t * x * z + s * y; m[9] = t * y * z - s * x; m[10] = t * z * z + c;
      return m;
    },
    translation(v) { const m = M.identity(); m[12] = v[0]; m[13] = v[1]; m[14] = v[2]; return m; },
  };
  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function add(a, b) { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
  function scale(a, s) { return [a[0] * s, a[1] * s, a[2] * s]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
  function len(a) { return Math.sqrt(dot(a, a)); }
  function norm(a) { const l = len(a); return l > 0 ? scale(a, 1 / l) : [0, 0, 1]; }

  // ---------- numbers ----------
  const fmt = (x, digits = 6) => (Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : '–');

  // ---------- GL ----------
  const canvas = $('gl');
  const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
  if (!gl) {
    $('hud').textContent = 'WebGL2 is not available in this browser: the 3D view is off (plots and numbers still work).';
  }

  function program(vs, fs) {
    const p = gl.createProgram();
    for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
      const s = gl.createShader(type);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error('shader: ' + gl.getShaderInfoLog(s));
      gl.attachShader(p, s);
    }
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error('program: ' + gl.getProgramInfoLog(p));
    const u = {};
    const n = gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < n; i++) {
      const name = gl.getActiveUniform(p, i).name;
      u[name] = gl.getUniformLocation(p, name);
    }
    return { p, u };
  }

  // Faces: flat shading from screen-space derivatives of the world position (no normals
  // needed), two-sided, a key light from the camera's upper left and an ambient term.
  const MESH_VS = `#version 300 es
    layout(location = 0) in vec3 position;
    uniform mat4 uModel, uViewProj;
    out vec3 vWorld;
    void main() { vec4 w = uModel * vec4(position, 1.0); vWorld = w.xyz; gl_Position = uViewProj * w; }`;
  const MESH_FS = `#version 300 es
    precision highp float;
    in vec3 vWorld;
    uniform vec4 uColor;
    uniform vec3 uLight;
    out vec4 outColor;
    void main() {
      vec3 n = normalize(cross(dFdx(vWorld), dFdy(vWorld)));
      float l = 0.55 + 0.45 * abs(dot(n, uLight));
      outColor = vec4(uColor.rgb * l, uColor.a);
    }`;
  const FLAT_VS = `#version 300 es
    layout(location = 0) in vec3 position;
    uniform mat4 uModel, uViewProj;
    uniform float uPointSize;
    void main() { gl_Position = uViewProj * uModel * vec4(position, 1.0); gl_PointSize = uPointSize; }`;
  const FLAT_FS = `#version 300 es
    precision highp float;
    uniform vec4 uColor;
    uniform float uRound;
    out vec4 outColor;
    void main() {
      if (uRound > 0.5 && length(gl_PointCoord - vec2(0.5)) > 0.5) discard;
      outColor = uColor;
    }`;

  let meshProg = null, flatProg = null, scratchVao = null, scratchBuf = null;
  if (gl) {
    meshProg = program(MESH_VS, MESH_FS);
    flatProg = program(FLAT_VS, FLAT_FS);
    scratchVao = gl.createVertexArray();
    scratchBuf = gl.createBuffer();
    gl.bindVertexArray(scratchVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, scratchBuf);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
  }

  // A GPU mesh: faces and feature edges (dihedral angle > 20° or boundary).
  function uploadMesh(md) {
    const g = { type: md.type, positions: null, count: 0, edgeCount: 0 };
    if (md.type === 'mesh') {
      g.positions = decode(md.positions);
      const tris = decode(md.triangles);
      g.count = tris.length;
      g.fidelity = md.fidelity;
      g.support = md.support;
      const edges = featureEdges(g.positions, tris);
      g.edgeCount = edges.length;
      if (gl) {
        g.vao = gl.createVertexArray();
        gl.bindVertexArray(g.vao);
        const vb = gl.createBuffer();
        gl.bindBuffer(gl.ARRAY_BUFFER, vb);
        gl.bufferData(gl.ARRAY_BUFFER, g.positions instanceof Float32Array ? g.positions : new Float32Array(g.positions), gl.STATIC_DRAW);
        gl.enableVertexAttribArray(0);
        gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
        const ib = gl.createBuffer();
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib);
        gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, tris, gl.STATIC_DRAW);
        g.edgeVao = gl.createVertexArray();
        gl.bindVertexArray(g.edgeVao);
        gl.bindBuffer(gl.ARRAY_BUFFER, vb);
        gl.enableVertexAttribArray(0);
        gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
        const eb = gl.createBuffer();
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, eb);
        gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, edges, gl.STATIC_DRAW);
        gl.bindVertexArray(null);
      }
    } else if (md.type === 'segment') {
      g.positions = new Float32Array([...md.points[0], ...md.points[1]]);
    } else {
      g.positions = new Float32Array(md.point);
    }
    return g;
  }

  function featureEdges(pos, tris) {
    const normal = (t) => {
      const p = (k) => [pos[3 * tris[t + k]], pos[3 * tris[t + k] + 1], pos[3 * tris[t + k] + 2]];
      const a = p(0);
      return norm(cross(sub(p(1), a), sub(p(2), a)));
    };
    const seen = new Map();
    for (let t = 0; t < tris.length; t += 3) {
      const n = normal(t);
      for (let e = 0; e < 3; e++) {
        const i = tris[t + e], j = tris[t + (e + 1) % 3];
        const key = i < j ? i * 4294967296 + j : j * 4294967296 + i;
        const other = seen.get(key);
        if (other === undefined) seen.set(key, { i, j, n, shared: false, sharp: false });
        else { other.shared = true; other.sharp = dot(other.n, n) < 0.94; }
      }
    }
    const out = [];
    for (const e of seen.values()) if (!e.shared || e.sharp) out.push(e.i, e.j);
    return new Uint32Array(out);
  }

  // ---------- colours ----------
  const hex = (h) => [parseInt(h.slice(1, 3), 16) / 255, parseInt(h.slice(3, 5), 16) / 255, parseInt(h.slice(5, 7), 16) / 255];
  const PALETTE = ['#8ea6c9', '#c9b08a', '#9cc59a', '#c59ac0', '#8ac4c4', '#d0a07e', '#a8a0d8', '#b8c27e'];
  const GROUND = '#e4e7ec';
  const CLOSEST = hex('#f0a81a');
  const UNDER = hex('#e0453c');
  const RED = hex('#d9342b'), AMBER = hex('#e8a21a'), GREEN = hex('#2ea043');
  function groupColours(objects) {
    const colours = new Map();
    let k = 0;
    for (const o of objects) {
      if (colours.has(o.group)) continue;
      const ground = /floor|ground|table/i.test(o.group);
      colours.set(o.group, ground ? GROUND : PALETTE[k++ % PALETTE.length]);
    }
    return colours;
  }
  // green far from the margin, amber half way, red at or below it (margin 0: the accent)
  function distanceColour(d, margin) {
    if (!(margin > 0)) return hex('#2f6fde');
    const s = Math.min(1, Math.max(0, (d - margin) / (9 * margin)));
    const mix = (a, b, t) => [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t);
    return s < 0.5 ? mix(RED, AMBER, 2 * s) : mix(AMBER, GREEN, 2 * s - 1);
  }

  // ---------- views ----------
  function buildView(v) {
    const view = { data: v, meshes: v.meshes.map(uploadMesh), objects: v.objects, pairs: v.pairs, margin: v.margin };
    view.colours = groupColours(v.objects);
    // extra translucent copies of objects (a sweep's start, end and impact poses)
    view.ghosts = (v.ghosts || []).map((g) => ({ object: g.object, matrix: M.fromPose(g.pose), alpha: g.alpha, label: g.label }));
    view.static = v.objects.map((o) => M.fromPose(o.pose));
    view.current = view.static.map((m) => m.slice());
    const t = v.timeline;
    if (t) {
      view.tl = {
        raw: t, cycles: t.cycles, dt: t.dt, unit: t.unit,
        frameCycle: decode(t.frame_cycle), moving: t.moving, poses: decode(t.poses), closest: decode(t.closest),
        distance: decode(t.distance), witness: decode(t.witness), underOffsets: decode(t.under_offsets),
        underPairs: decode(t.under_pairs), seriesDistance: decode(t.series_distance),
        seriesCycle: decode(t.series_cycle_us), minimum: t.minimum, markers: t.markers,
      };
    }
    if (v.robot) view.robot = buildRobot(v.robot, v.objects.length);
    view.bounds = focusBounds(view);
    return view;
  }

  // World-space bounds of what the camera should frame: the moving objects over sampled
  // frames (or the robot, or every object) — a floor slab does not set the zoom.
  function focusBounds(view) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    const grow = (m, g) => {
      const p = g.positions;
      for (let i = 0; i < p.length; i += 3) {
        const w = M.point(m, p[i], p[i + 1], p[i + 2]);
        for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], w[k]); hi[k] = Math.max(hi[k], w[k]); }
      }
    };
    const tl = view.tl;
    let focus = view.objects.map((_, i) => i);
    if (tl && tl.moving.length) {
      focus = tl.moving;
      const frames = tl.frameCycle.length, step = Math.max(1, Math.floor(frames / 24));
      for (let f = 0; f < frames; f += step) {
        tl.moving.forEach((o, k) => grow(M.fromPose(tl.poses, 7 * (f * tl.moving.length + k)), view.meshes[view.objects[o].mesh]));
      }
    } else if (view.robot) {
      focus = view.robot.attached;
    }
    for (const o of focus) grow(view.static[o], view.meshes[view.objects[o].mesh]);
    if (view.data.annotation) {
      for (const p of [view.data.annotation.point_a, view.data.annotation.point_b]) {
        if (p) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
      }
    }
    if (!Number.isFinite(lo[0])) return { centre: [0, 0, 0], lo: [0, 0, 0], hi: [0, 0, 0], radius: 1 };
    const centre = scale(add(lo, hi), 0.5);
    return { centre, lo, hi, radius: Math.max(1e-6, 0.5 * len(sub(hi, lo))) };
  }

  // ---------- distances in the page (robot view): GJK on support functions ----------
  // Local support functions: the exact primitive when the mesh is inscribed in one, else the
  // mesh vertices (exact for polytopes: the hull's vertices, as the library's queries use).
  function localSupport(g) {
    const s = g.support, sgn = (x, h) => (x >= 0 ? h : -h);
    if (s && s.type === 'sphere') return (d) => scale(norm(d), s.radius);
    if (s && s.type === 'capsule') return (d) => add([0, 0, sgn(d[2], s.half_height)], scale(norm(d), s.radius));
    if (s && s.type === 'cylinder') {
      return (d) => {
        const r = Math.hypot(d[0], d[1]), k = r > 0 ? s.radius / r : 0;
        return [d[0] * k, d[1] * k, sgn(d[2], s.half_height)];
      };
    }
    if (s && s.type === 'cone') {
      return (d) => {
        const r = Math.hypot(d[0], d[1]), k = r > 0 ? s.radius / r : 0, rim = [d[0] * k, d[1] * k, -s.half_height];
        return dot(d, rim) > d[2] * s.half_height ? rim : [0, 0, s.half_height];
      };
    }
    if (s && s.type === 'ellipsoid') {
      return (d) => {
        const [a, b, c] = s.radii, dm = [d[0] * a, d[1] * b, d[2] * c], l = len(dm);
        return l > 0 ? [dm[0] * a / l, dm[1] * b / l, dm[2] * c / l] : [0, 0, 0];
      };
    }
    const p = g.positions;
    return (d) => {
      let best = -Infinity, k = 0;
      for (let i = 0; i < p.length; i += 3) {
        const v = p[i] * d[0] + p[i + 1] * d[1] + p[i + 2] * d[2];
        if (v > best) { best = v; k = i; }
      }
      return [p[k], p[k + 1], p[k + 2]];
    };
  }
  // world support of a local support function under the pose matrix m: R s(Rᵀ d) + t
  function placed(local, m) {
    return (d) => {
      const p = local([m[0] * d[0] + m[1] * d[1] + m[2] * d[2], m[4] * d[0] + m[5] * d[1] + m[6] * d[2], m[8] * d[0] + m[9] * d[1] + m[10] * d[2]]);
      return M.point(m, p[0], p[1], p[2]);
    };
  }

  // The point of the hull of `pts` (≤ 4 points) nearest the origin: every face's affine
  // projection with non-negative barycentric weights, the nearest kept (Johnson's
  // sub-simplex enumeration; 15 faces at most, each a ≤ 3×3 solve).
  function nearestOnSimplex(pts) {
    let best = null;
    const n = pts.length;
    for (let mask = 1; mask < 1 << n; mask++) {
      const idx = [];
      for (let i = 0; i < n; i++) if (mask & (1 << i)) idx.push(i);
      const p0 = pts[idx[0]], e = idx.slice(1).map((i) => sub(pts[i], p0)), k = e.length;
      // normal equations G μ = r for v = p0 + Σ μ_i e_i ⟂ every e_i
      const G = e.map((a) => e.map((b) => dot(a, b))), r = e.map((a) => -dot(a, p0));
      const mu = solveSmall(G, r);
      if (!mu) continue;
      const lam = [1 - mu.reduce((x, y) => x + y, 0), ...mu];
      if (lam.some((l) => l < -1e-12)) continue;
      let v = p0;
      for (let i = 0; i < k; i++) v = add(v, scale(e[i], mu[i]));
      const vv = dot(v, v);
      if (!best || vv < best.vv) best = { vv, v, idx, lam: lam.map((l) => Math.max(0, l)) };
    }
    return best;
  }
  // Gaussian elimination with partial pivoting; null when (nearly) singular
  function solveSmall(G, r) {
    const k = r.length, A = G.map((row, i) => [...row, r[i]]);
    let scaleG = 0;
    for (const row of G) for (const x of row) scaleG = Math.max(scaleG, Math.abs(x));
    for (let c = 0; c < k; c++) {
      let piv = c;
      for (let i = c + 1; i < k; i++) if (Math.abs(A[i][c]) > Math.abs(A[piv][c])) piv = i;
      if (Math.abs(A[piv][c]) <= 1e-13 * scaleG) return null;
      [A[c], A[piv]] = [A[piv], A[c]];
      for (let i = c + 1; i < k; i++) {
        const f = A[i][c] / A[c][c];
        for (let j = c; j <= k; j++) A[i][j] -= f * A[c][j];
      }
    }
    const x = new Array(k).fill(0);
    for (let i = k - 1; i >= 0; i--) {
      let t = A[i][k];
      for (let j = i + 1; j < k; j++) t -= A[i][j] * x[j];
      x[i] = t / A[i][i];
    }
    return x;
  }

  // GJK on world support functions: the distance, witness points (the simplex's weights
  // applied to the supports of A and B) and a bracket: upper = |p_a − p_b|, lower = the
  // separation of the two sets along n = v/|v|, min n·a − max n·b, evaluated by the supports.
  function gjk(supA, supB) {
    let simplex = [];
    let v = sub(supA([1, 0, 0]), supB([-1, 0, 0])), lam = [1];
    simplex.push({ w: v, a: supA([1, 0, 0]), b: supB([-1, 0, 0]) });
    let lower = 0;
    for (let it = 0; it < 100; it++) {
      const vv = dot(v, v);
      if (vv <= 1e-30) break;
      const a = supA(scale(v, -1)), b = supB(v), w = sub(a, b);
      // every point x of A − B has n·x ≥ n·w (n = v/|v|, w its support towards −n): a lower bound
      lower = Math.max(lower, dot(v, w) / Math.sqrt(vv));
      // duality gap |v|² − v·w ≥ |v| (|v| − distance): stop when it is tiny
      if (vv - dot(v, w) <= 1e-12 * vv || simplex.some((s) => s.w[0] === w[0] && s.w[1] === w[1] && s.w[2] === w[2])) break;
      const next = nearestOnSimplex([...simplex.map((s) => s.w), w]);
      const all = [...simplex, { w, a, b }];
      if (!next || next.vv >= vv) break;
      simplex = next.idx.map((i) => all[i]);
      lam = next.lam;
      v = next.v;
    }
    const pa = [0, 0, 0], pb = [0, 0, 0];
    simplex.forEach((s, i) => { for (let k = 0; k < 3; k++) { pa[k] += lam[i] * s.a[k]; pb[k] += lam[i] * s.b[k]; } });
    const upper = len(sub(pa, pb));
    if (dot(v, v) <= 1e-30) return { distance: 0, lower: 0, upper, pa, pb, intersecting: true };
    return { distance: upper, lower: Math.min(lower, upper), upper, pa, pb, intersecting: false };
  }

  function objectDistance(v, i, j) {
    v.supports = v.supports || v.objects.map((o) => localSupport(v.meshes[o.mesh]));
    return gjk(placed(v.supports[i], v.current[i]), placed(v.supports[j], v.current[j]));
  }

  // every monitored pair at the current configuration: the closest, and those under the margin
  function robotDistances(v) {
    const out = { closest: null, closestPair: -1, distance: Infinity, lower: NaN, upper: NaN, witness: null, under: [], underPairs: [], pairs: [] };
    v.pairs.forEach(([i, j], p) => {
      const r = objectDistance(v, i, j);
      out.pairs.push(r.distance);
      if (r.distance < out.distance) {
        Object.assign(out, { closest: [v.objects[i].name, v.objects[j].name], closestPair: p, distance: r.distance, lower: r.lower, upper: r.upper, witness: [r.pa, r.pb] });
      }
      if (r.distance <= v.margin) { out.under.push([v.objects[i].name, v.objects[j].name]); out.underPairs.push(p); }
    });
    return out;
  }

  // ---------- robot kinematics (joint sliders) ----------
  function buildRobot(r, objectCount) {
    return {
      data: r, q: r.initial.slice(), attached: r.attachments.map((a) => a.object),
      origin: r.joints.map((j) => M.fromPose(j.origin)), local: r.attachments.map((a) => M.fromPose(a.local)),
      objectCount,
    };
  }
  // Link frames: root = base; child = parent · origin · motion(q) (rotation about or
  // translation along the axis), mimic joints follow their driver.
  function robotFrames(robot) {
    const r = robot.data, frames = new Array(r.links.length);
    frames[r.root] = M.fromPose(r.base);
    r.joints.forEach((j, k) => {
      let q = robot.q[k];
      if (j.mimic) q = robot.q[j.mimic[0]] * j.mimic[1] + j.mimic[2];
      let motion = M.identity();
      if (j.kind === 'revolute' || j.kind === 'continuous') motion = M.axisAngle(j.axis, q);
      else if (j.kind === 'prismatic') motion = M.translation(scale(j.axis, q));
      frames[j.child] = M.mul(M.mul(frames[j.parent], robot.origin[k]), motion);
    });
    return frames;
  }
  function poseRobot(view) {
    const robot = view.robot, frames = robotFrames(robot);
    robot.data.attachments.forEach((a, k) => { view.current[a.object] = M.mul(frames[a.link], robot.local[k]); });
  }

  // ---------- state ----------
  const state = {
    views: [], index: 0, frame: 0, playing: false, speed: 0.25, clock: 0, last: 0,
    camera: { target: [0, 0, 0], dist: 5, az: -0.9, el: 0.45, fov: 0.8 },
  };
  // views are built (arrays decoded, meshes uploaded) when first shown
  const view = () => {
    if (!state.views[state.index]) state.views[state.index] = buildView(DATA.views[state.index]);
    return state.views[state.index];
  };

  function setFrame(f) {
    const v = view();
    if (!v.tl) return;
    const n = v.tl.frameCycle.length;
    state.frame = Math.max(0, Math.min(n - 1, f | 0));
    const tl = v.tl, m = tl.moving.length;
    v.current = v.static.map((x) => x);
    tl.moving.forEach((o, k) => { v.current[o] = M.fromPose(tl.poses, 7 * (state.frame * m + k)); });
    state.clock = tl.frameCycle[state.frame];
    $('scrubber').value = String(state.frame);
    updateInfo();
    requestRender();
  }
  // the frame nearest to `cycle`
  function seekCycle(cycle) {
    const fc = view().tl.frameCycle;
    let lo = 0, hi = fc.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (fc[mid] < cycle) lo = mid + 1; else hi = mid; }
    if (lo > 0 && Math.abs(fc[lo - 1] - cycle) <= Math.abs(fc[lo] - cycle)) lo -= 1;
    setFrame(lo);
  }

  // What the current frame shows, for the panel and for tests.
  function frameState() {
    const v = view();
    const name = (i) => v.objects[i].name;
    if (v.tl) {
      const tl = v.tl, f = state.frame, c = tl.closest[f];
      const under = [];
      for (let k = tl.underOffsets[f]; k < tl.underOffsets[f + 1]; k++) under.push(tl.underPairs[k]);
      return {
        view: v.data.name, frame: f, cycle: tl.frameCycle[f], time: tl.frameCycle[f] * tl.dt,
        closest: c >= 0 ? v.pairs[c].map(name) : null, closestPair: c, distance: c >= 0 ? tl.distance[f] : null,
        witness: c >= 0 ? Array.from(tl.witness.slice(6 * f, 6 * f + 6)) : null,
        under: under.map((p) => v.pairs[p].map(name)), underPairs: under,
      };
    }
    if (v.robot) return { view: v.data.name, q: v.robot.q.slice(), ...(v.robotDistances || {}) };
    const a = v.data.annotation;
    return { view: v.data.name, closest: a ? a.pair.map(name) : null, distance: a ? a.distance : null };
  }

  function timeText(v, cycle) {
    const tl = v.tl;
    if (tl.unit === 't') return `t = ${fmt(cycle * tl.dt, 6)}`;
    if (tl.unit === 'step') return `step ${cycle}`;
    return `${tl.unit} ${cycle} · t = ${(cycle * tl.dt).toFixed(3)} s`;
  }

  function updateInfo() {
    const v = view(), s = frameState(), info = $('frame-info');
    const lines = [];
    if (v.tl) {
      $('time-label').textContent = `${timeText(v, s.cycle)} (frame ${s.frame + 1}/${v.tl.frameCycle.length})`;
      lines.push(`<h2>frame</h2><p>${timeText(v, s.cycle)}</p>`);
      if (s.closest) {
        const warn = v.margin > 0 && s.distance <= v.margin ? ' class="warn"' : '';
        lines.push(`<p${warn} id="closest-pair" data-pair="${esc(s.closest.join('|'))}" data-distance="${s.distance}">closest pair ${esc(s.closest[0])} – ${esc(s.closest[1])}: ${fmt(s.distance, 9)} ${esc(v.data.unit)}</p>`);
      }
      const u = $('under-margin');
      u.innerHTML = v.margin > 0
        ? `<h2>under the ${fmt(v.margin)} ${esc(v.data.unit)} margin</h2>` +
          (s.under.length ? s.under.map((p) => `<p class="warn">${esc(p[0])} – ${esc(p[1])}</p>`).join('') : '<p>none</p>')
        : '';
      const hud = s.closest ? `${timeText(v, s.cycle)} · ${esc(s.closest[0])} – ${esc(s.closest[1])} ${fmt(s.distance)} ${esc(v.data.unit)}` : timeText(v, s.cycle);
      $('hud').innerHTML = hud;
      drawPlots();
    } else if (v.robot) {
      const d = v.robotDistances;
      if (d && d.closest) {
        const warn = v.margin > 0 && d.distance <= v.margin ? ' class="warn"' : '';
        lines.push(`<h2>closest pair</h2><p${warn} id="closest-pair" data-pair="${esc(d.closest.join('|'))}" data-distance="${d.distance}">${esc(d.closest[0])} – ${esc(d.closest[1])}: ${fmt(d.distance, 9)} ${esc(v.data.unit)}</p>`);
        lines.push(`<p>bracket [${fmt(d.lower, 9)}, ${fmt(d.upper, 9)}] (page GJK, f64)</p>`);
        $('hud').innerHTML = `${esc(d.closest[0])} – ${esc(d.closest[1])} ${fmt(d.distance)} ${esc(v.data.unit)}`;
      }
      const u = $('under-margin');
      u.innerHTML = v.margin > 0 && d
        ? `<h2>under the ${fmt(v.margin)} ${esc(v.data.unit)} margin</h2>` +
          (d.under.length ? d.under.map((p) => `<p class="warn">${esc(p[0])} – ${esc(p[1])}</p>`).join('') : '<p>none</p>')
        : '';
    } else {
      const a = v.data.annotation;
      $('hud').innerHTML = a && a.distance !== null ? `distance ${fmt(a.distance, 9)} ${esc(v.data.unit)}` : '';
    }
    info.innerHTML = lines.join('');
  }
  function esc(s) { return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

  // ---------- drawing ----------
  let renderQueued = false;
  function requestRender() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(() => { renderQueued = false; render(); });
  }

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }

  function eye() {
    const c = state.camera;
    return add(c.target, scale([Math.cos(c.el) * Math.cos(c.az), Math.cos(c.el) * Math.sin(c.az), Math.sin(c.el)], c.dist));
  }

  function render() {
    if (!gl) return;
    resize();
    const v = view(), c = state.camera;
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(0.965, 0.969, 0.976, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    const e = eye();
    const proj = M.perspective(c.fov, canvas.width / canvas.height, c.dist / 200, c.dist * 200);
    const viewM = M.lookAt(e, c.target, [0, 0, 1]);
    const vp = new Float32Array(M.mul(proj, viewM));
    const light = norm(add(norm(sub(e, c.target)), [0.3, -0.2, 0.6]));

    // which objects to highlight
    const s = frameState();
    const closestObjs = new Set(), underObjs = new Set();
    const pairObjs = (p) => v.pairs[p];
    // with a single pair, colours by group say more than "closest" on both
    if (v.tl && s.closestPair >= 0 && v.pairs.length > 1) pairObjs(s.closestPair).forEach((o) => closestObjs.add(o));
    if (v.tl) s.underPairs.forEach((p) => pairObjs(p).forEach((o) => underObjs.add(o)));
    if (v.robot && v.robotDistances) {
      if (v.robotDistances.closestPair >= 0) pairObjs(v.robotDistances.closestPair).forEach((o) => closestObjs.add(o));
      v.robotDistances.underPairs.forEach((p) => pairObjs(p).forEach((o) => underObjs.add(o)));
    }

    // faces, then edges over them (polygon offset pushes faces back)
    gl.useProgram(meshProg.p);
    gl.uniformMatrix4fv(meshProg.u.uViewProj, false, vp);
    gl.uniform3fv(meshProg.u.uLight, light);
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(1, 1);
    v.objects.forEach((o, i) => {
      const g = v.meshes[o.mesh];
      if (g.type !== 'mesh') return;
      let col = hex(v.colours.get(o.group));
      if (underObjs.has(i)) col = UNDER; else if (closestObjs.has(i)) col = CLOSEST;
      gl.uniformMatrix4fv(meshProg.u.uModel, false, new Float32Array(v.current[i]));
      gl.uniform4f(meshProg.u.uColor, col[0], col[1], col[2], 1);
      gl.bindVertexArray(g.vao);
      gl.drawElements(gl.TRIANGLES, g.count, gl.UNSIGNED_INT, 0);
    });
    if (v.ghosts.length) {
      gl.depthMask(false);
      for (const gh of v.ghosts) {
        const o = v.objects[gh.object], g = v.meshes[o.mesh];
        if (g.type !== 'mesh') continue;
        // the impact pose in the under-margin red, other copies in their group's colour
        const col = gh.label === 'impact' ? UNDER : hex(v.colours.get(o.group));
        gl.uniformMatrix4fv(meshProg.u.uModel, false, new Float32Array(gh.matrix));
        gl.uniform4f(meshProg.u.uColor, col[0], col[1], col[2], gh.alpha);
        gl.bindVertexArray(g.vao);
        gl.drawElements(gl.TRIANGLES, g.count, gl.UNSIGNED_INT, 0);
      }
      gl.depthMask(true);
    }
    gl.disable(gl.POLYGON_OFFSET_FILL);

    gl.useProgram(flatProg.p);
    gl.uniformMatrix4fv(flatProg.u.uViewProj, false, vp);
    gl.uniform1f(flatProg.u.uRound, 0);
    gl.uniform1f(flatProg.u.uPointSize, 1);
    v.objects.forEach((o, i) => {
      const g = v.meshes[o.mesh];
      gl.uniformMatrix4fv(flatProg.u.uModel, false, new Float32Array(v.current[i]));
      if (g.type === 'mesh') {
        gl.uniform4f(flatProg.u.uColor, 0.2, 0.23, 0.3, 0.55);
        gl.bindVertexArray(g.edgeVao);
        gl.drawElements(gl.LINES, g.edgeCount, gl.UNSIGNED_INT, 0);
      } else {
        gl.uniform4f(flatProg.u.uColor, 0.15, 0.2, 0.35, 1);
        drawScratch(g.positions, g.type === 'segment' ? gl.LINES : gl.POINTS, 6);
      }
    });
    gl.uniformMatrix4fv(flatProg.u.uModel, false, new Float32Array(M.identity()));
    drawGrid(v);

    // the closest pair's witness segment (thick, coloured by distance) and its end points
    // (a sweep shows the frame's segment and the impact's)
    const segs = [];
    if (v.tl && s.witness && s.witness.every(Number.isFinite)) segs.push({ a: s.witness.slice(0, 3), b: s.witness.slice(3, 6), d: s.distance });
    if (v.robot && v.robotDistances && v.robotDistances.witness) {
      const w = v.robotDistances.witness;
      segs.push({ a: w[0], b: w[1], d: v.robotDistances.distance });
    }
    const a = v.data.annotation;
    if (a && a.point_a && a.point_b) segs.push({ a: a.point_a, b: a.point_b, d: a.distance });
    gl.disable(gl.DEPTH_TEST);
    for (const seg of segs) {
      const col = distanceColour(seg.d, v.margin);
      gl.uniform4f(flatProg.u.uColor, col[0], col[1], col[2], 1);
      thickLine(seg.a, seg.b, 4, e);
      gl.uniform1f(flatProg.u.uRound, 1);
      drawScratch(new Float32Array([...seg.a, ...seg.b]), gl.POINTS, 11);
      gl.uniform1f(flatProg.u.uRound, 0);
    }
    if (a && a.normal && a.point_a) {
      const L = 0.3 * v.bounds.radius, tip = add(a.point_a, scale(a.normal, L));
      gl.uniform4f(flatProg.u.uColor, 0.18, 0.43, 0.87, 1);
      thickLine(a.point_a, tip, 2.5, e);
      gl.uniform1f(flatProg.u.uRound, 1);
      drawScratch(new Float32Array(tip), gl.POINTS, 8);
      gl.uniform1f(flatProg.u.uRound, 0);
    }
    gl.enable(gl.DEPTH_TEST);
    gl.bindVertexArray(null);
    document.body.dataset.rendered = String((Number(document.body.dataset.rendered) || 0) + 1);
  }

  function drawScratch(positions, mode, pointSize) {
    gl.uniform1f(flatProg.u.uPointSize, pointSize);
    gl.bindVertexArray(scratchVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, scratchBuf);
    gl.bufferData(gl.ARRAY_BUFFER, positions, gl.DYNAMIC_DRAW);
    gl.drawArrays(mode, 0, positions.length / 3);
  }

  // a segment `px` pixels wide: a quad facing the camera
  function thickLine(p, q, px, e) {
    const mid = scale(add(p, q), 0.5), dir = sub(q, p);
    let side = cross(dir, sub(e, mid));
    if (len(side) === 0) side = cross(dir, [0, 0, 1]);
    const worldPerPixel = 2 * len(sub(e, mid)) * Math.tan(state.camera.fov / 2) / canvas.height;
    side = scale(norm(side), 0.5 * px * worldPerPixel * (window.devicePixelRatio || 1));
    const a = add(p, side), b = sub(p, side), c2 = add(q, side), d = sub(q, side);
    drawScratch(new Float32Array([...a, ...b, ...c2, ...b, ...d, ...c2]), gl.TRIANGLES, 1);
  }

  // a faint grid under the focus (z = 0 when the focus stands on it), spacing a round number
  function drawGrid(v) {
    const z = Math.min(0, v.bounds.lo[2]);
    const r = v.bounds.radius, raw = r / 4, p10 = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((k) => k * p10).find((s) => s >= raw);
    const n = 12, cx = Math.round(v.bounds.centre[0] / step) * step, cy = Math.round(v.bounds.centre[1] / step) * step;
    const pts = [];
    for (let i = -n; i <= n; i++) {
      pts.push(cx + i * step, cy - n * step, z, cx + i * step, cy + n * step, z);
      pts.push(cx - n * step, cy + i * step, z, cx + n * step, cy + i * step, z);
    }
    gl.uniform4f(flatProg.u.uColor, 0.45, 0.5, 0.58, 0.25);
    drawScratch(new Float32Array(pts), gl.LINES, 1);
  }

  // ---------- plots (2D canvas, linked to the timeline) ----------
  function plotSeries(cv, series, opts) {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(cv.clientWidth * dpr)), h = Math.max(1, Math.round(cv.clientHeight * dpr));
    if (cv.width !== w || cv.height !== h) { cv.width = w; cv.height = h; }
    const ctx = cv.getContext('2d');
    ctx.clearRect(0, 0, w, h);
    const padL = 56 * dpr, padR = 8 * dpr, padT = 6 * dpr, padB = 18 * dpr;
    const n = series.length, x = (i) => padL + (w - padL - padR) * (n > 1 ? i / (n - 1) : 0);
    const y = (val) => h - padB - (h - padT - padB) * Math.min(1, Math.max(0, val / opts.yMax));
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    ctx.fillStyle = '#5b6474';
    ctx.strokeStyle = '#d8dce3';
    ctx.lineWidth = dpr;
    for (let k = 0; k <= 4; k++) {
      const val = opts.yMax * k / 4;
      ctx.beginPath(); ctx.moveTo(padL, y(val)); ctx.lineTo(w - padR, y(val)); ctx.stroke();
      ctx.fillText(fmt(val, 3), 4 * dpr, y(val) + 4 * dpr);
    }
    ctx.fillText(opts.xLabel, padL, h - 4 * dpr);
    if (opts.margin > 0) {
      ctx.strokeStyle = '#d9342b'; ctx.setLineDash([5 * dpr, 4 * dpr]);
      ctx.beginPath(); ctx.moveTo(padL, y(opts.margin)); ctx.lineTo(w - padR, y(opts.margin)); ctx.stroke();
      ctx.setLineDash([]);
    }
    // a polyline through the samples, or (more samples than pixel columns) the min/max
    // envelope per column: any number of cycles draws in O(width)
    ctx.strokeStyle = opts.colour; ctx.lineWidth = 1.4 * dpr;
    ctx.beginPath();
    const cols = Math.max(1, Math.round(w - padL - padR));
    let started = false;
    if (n <= cols) {
      for (let i = 0; i < n; i++) {
        const s = series[i];
        if (!Number.isFinite(s)) { started = false; continue; }
        if (!started) { ctx.moveTo(x(i), y(s)); started = true; } else ctx.lineTo(x(i), y(s));
      }
    }
    for (let c = 0; c < cols && n > cols; c++) {
      const i0 = Math.floor(c * n / cols), i1 = Math.max(i0 + 1, Math.floor((c + 1) * n / cols));
      let lo = Infinity, hi = -Infinity;
      for (let i = i0; i < i1 && i < n; i++) { const s = series[i]; if (Number.isFinite(s)) { lo = Math.min(lo, s); hi = Math.max(hi, s); } }
      if (!Number.isFinite(lo)) { started = false; continue; }
      const px = padL + c;
      if (!started) { ctx.moveTo(px, y(hi)); started = true; } else ctx.lineTo(px, y(hi));
      ctx.lineTo(px, y(lo));
    }
    ctx.stroke();
    (opts.markers || []).forEach((m, k) => {
      ctx.fillStyle = m.colour;
      ctx.beginPath(); ctx.arc(x(m.at), y(m.value), 3.5 * dpr, 0, 2 * Math.PI); ctx.fill();
      // labels one line apart
      ctx.fillText(m.label, Math.min(x(m.at) + 6 * dpr, w - 140 * dpr), padT + (10 + 13 * k) * dpr);
    });
    ctx.strokeStyle = '#2f6fde'; ctx.lineWidth = 1.5 * dpr;
    ctx.beginPath(); ctx.moveTo(x(opts.cursor), padT); ctx.lineTo(x(opts.cursor), h - padB); ctx.stroke();
    cv.plotGeometry = { padL, padR, w, n, dpr };
  }

  function finiteMax(a) { let m = 0; for (const x of a) if (Number.isFinite(x) && x > m) m = x; return m; }
  function quantile(a, p) {
    const s = Array.from(a).filter(Number.isFinite).sort((x, y) => x - y);
    return s.length ? s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] : 0;
  }

  function drawPlots() {
    const v = view(), tl = v.tl;
    if (!tl) return;
    if (tl.yMaxDistance === undefined) {
      tl.yMaxDistance = Math.max(finiteMax(tl.seriesDistance), v.margin) * 1.05 || 1;
      tl.yMaxCycle = tl.seriesCycle ? Math.max(1, 2 * quantile(tl.seriesCycle, 0.99)) : 1;
    }
    const cursor = tl.frameCycle[state.frame];
    const markers = [];
    if (tl.minimum) markers.push({ at: tl.minimum.cycle, value: tl.minimum.distance, colour: '#d9342b', label: `min ${fmt(tl.minimum.distance)} ${v.data.unit}` });
    for (const m of tl.markers) markers.push({ at: m.cycle, value: tl.seriesDistance[m.cycle] || 0, colour: '#2f6fde', label: m.label });
    const xLabel = tl.unit === 't' ? 't (0 → 1)' : tl.unit === 'step' ? 'step' : `${tl.unit} (dt = ${fmt(tl.dt)} s)`;
    plotSeries($('plot-distance'), tl.seriesDistance, { yMax: tl.yMaxDistance, margin: v.margin, colour: '#1f5fbf', cursor, markers, xLabel });
    if (tl.seriesCycle) {
      plotSeries($('plot-cycle'), tl.seriesCycle, { yMax: tl.yMaxCycle, margin: 0, colour: '#333', cursor, xLabel: `${xLabel}, µs (clipped at 2 × p99)` });
    }
  }

  function plotClick(ev) {
    const cv = ev.currentTarget, g = cv.plotGeometry;
    if (!g) return;
    const r = cv.getBoundingClientRect();
    const px = (ev.clientX - r.left) * g.dpr;
    const frac = Math.min(1, Math.max(0, (px - g.padL) / (g.w - g.padL - g.padR)));
    stop();
    seekCycle(Math.round(frac * (g.n - 1)));
  }

  // ---------- play / pause ----------
  function stop() { state.playing = false; $('play').textContent = 'play'; }
  function play() {
    const v = view();
    if (!v.tl) return;
    if (state.frame >= v.tl.frameCycle.length - 1) setFrame(0);
    state.playing = true; $('play').textContent = 'pause';
    state.last = performance.now();
    requestAnimationFrame(tick);
  }
  function tick(now) {
    if (!state.playing) return;
    const v = view(), tl = v.tl;
    const dtReal = Math.min(0.1, (now - state.last) / 1000);
    state.last = now;
    // at 1×: a sweep's t runs 0 → 1 in one second, a track plays 30 steps a second
    const unitSeconds = tl.unit === 't' ? 1 : tl.unit === 'step' ? 1 / 30 : tl.dt;
    state.clock += state.speed * dtReal / unitSeconds;
    const fc = tl.frameCycle;
    let f = state.frame;
    while (f + 1 < fc.length && fc[f + 1] <= state.clock) f++;
    const clock = state.clock;
    if (f !== state.frame) setFrame(f);
    state.clock = clock;
    if (f >= fc.length - 1) { stop(); return; }
    requestAnimationFrame(tick);
  }

  // ---------- camera controls ----------
  function resetCamera() {
    const b = view().bounds, c = state.camera;
    c.target = b.centre.slice();
    c.dist = 0.95 * b.radius / Math.sin(c.fov / 2);
    c.az = -0.9; c.el = 0.45;
    requestRender();
  }
  let drag = null;
  canvas.addEventListener('pointerdown', (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, pan: ev.button === 2 || ev.shiftKey };
    canvas.setPointerCapture(ev.pointerId);
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y, c = state.camera;
    drag.x = ev.clientX; drag.y = ev.clientY;
    if (drag.pan) {
      const e = eye(), fwd = norm(sub(c.target, e)), right = norm(cross(fwd, [0, 0, 1])), up = cross(right, fwd);
      const k = 2 * c.dist * Math.tan(c.fov / 2) / canvas.clientHeight;
      c.target = add(c.target, add(scale(right, -dx * k), scale(up, dy * k)));
    } else {
      c.az -= dx * 0.008;
      c.el = Math.max(-1.5, Math.min(1.5, c.el + dy * 0.008));
    }
    requestRender();
  });
  canvas.addEventListener('pointerup', () => { drag = null; });
  canvas.addEventListener('contextmenu', (ev) => ev.preventDefault());
  canvas.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    state.camera.dist *= Math.exp(Math.sign(ev.deltaY) * 0.12);
    requestRender();
  }, { passive: false });
  canvas.addEventListener('dblclick', resetCamera);

  // ---------- robot sliders ----------
  function buildJoints(v) {
    const box = $('joints');
    box.innerHTML = '';
    if (!v.robot) return;
    const r = v.robot.data;
    box.insertAdjacentHTML('beforeend', '<h2>joints</h2>');
    r.joints.forEach((j, k) => {
      if (j.kind === 'fixed' || j.mimic) return;
      const label = document.createElement('label');
      const step = (j.upper - j.lower) / 1000;
      label.innerHTML = `<span>${esc(j.name)}</span><input type="range" min="${j.lower}" max="${j.upper}" step="${step}" value="${v.robot.q[k]}" data-joint="${k}"><output>${fmt(v.robot.q[k], 4)}</output>`;
      const input = label.querySelector('input'), out = label.querySelector('output');
      input.addEventListener('input', () => {
        v.robot.q[k] = Number(input.value);
        out.textContent = fmt(v.robot.q[k], 4);
        updateRobot(v);
      });
      box.appendChild(label);
    });
  }
  function syncSliders(v) {
    document.querySelectorAll('#joints input').forEach((input) => {
      const k = Number(input.dataset.joint);
      input.value = String(v.robot.q[k]);
      input.nextElementSibling.textContent = fmt(v.robot.q[k], 4);
    });
  }
  function updateRobot(v) {
    poseRobot(v);
    v.robotDistances = robotDistances(v);
    updateInfo();
    requestRender();
  }

  // ---------- tabs, legend ----------
  function legend(v) {
    const parts = [];
    for (const [g, col] of v.colours) parts.push(`<span class="swatch" style="background:${col}"></span>${esc(g)}`);
    parts.push('<span class="swatch" style="background:#f0a81a"></span>closest pair');
    if (v.margin > 0) {
      parts.push('<span class="swatch" style="background:#e0453c"></span>under margin');
      parts.push(`<br>witness: ≤ ${fmt(v.margin)}<span class="ramp"></span>≥ ${fmt(10 * v.margin)} ${esc(v.data.unit)}`);
    }
    const inscribed = v.meshes.some((g) => g.fidelity === 'inscribed');
    if (inscribed) parts.push('<br>curved shapes: inscribed polytopes (vertices on the surface)');
    if (v.ghosts.length) parts.push('<br>translucent: start and end poses; red: the impact pose');
    $('legend').innerHTML = parts.join('');
  }

  function selectView(i) {
    stop();
    state.index = i;
    const v = view();
    document.querySelectorAll('#tabs button').forEach((b, k) => b.classList.toggle('active', k === i));
    $('view-summary').innerHTML = '<h2>' + esc(v.data.kind) + '</h2>' + v.data.summary.map((l) => `<p>${esc(l)}</p>`).join('');
    $('under-margin').innerHTML = '';
    const hasTl = !!v.tl;
    $('timeline').hidden = !hasTl;
    $('plots').hidden = !hasTl;
    if (hasTl) {
      $('scrubber').max = String(v.tl.frameCycle.length - 1);
      $('cycle-figure').hidden = !v.tl.seriesCycle;
      $('speed').value = String(state.speed);
    }
    buildJoints(v);
    legend(v);
    resetCamera();
    if (hasTl) setFrame(0);
    else if (v.robot) updateRobot(v);
    else { updateInfo(); requestRender(); }
  }

  // ---------- start ----------
  state.views = DATA.views.map(() => null);
  const tabs = $('tabs');
  DATA.views.forEach((v, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = v.name;
    b.addEventListener('click', () => selectView(i));
    tabs.appendChild(b);
  });
  for (const s of [0.05, 0.1, 0.25, 0.5, 1, 2, 4]) {
    const o = document.createElement('option');
    o.value = String(s); o.textContent = `${s}×`;
    $('speed').appendChild(o);
  }
  $('speed').addEventListener('change', () => { state.speed = Number($('speed').value); });
  $('play').addEventListener('click', () => (state.playing ? stop() : play()));
  $('scrubber').addEventListener('input', () => { stop(); setFrame(Number($('scrubber').value)); });
  $('plot-distance').addEventListener('click', plotClick);
  $('plot-cycle').addEventListener('click', plotClick);
  window.addEventListener('keydown', (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    const v = view();
    if (!v.tl) return;
    if (ev.key === ' ') { ev.preventDefault(); state.playing ? stop() : play(); }
    if (ev.key === 'ArrowRight') { stop(); setFrame(state.frame + 1); }
    if (ev.key === 'ArrowLeft') { stop(); setFrame(state.frame - 1); }
  });
  if (window.ResizeObserver) new ResizeObserver(() => { requestRender(); if (view() && view().tl) drawPlots(); }).observe(canvas);
  if (state.views.length) selectView(0);

  // test hooks: the browser tests drive the page through these and through the controls
  window.proxima = {
    data: DATA, frameState, seekCycle, setFrame, selectView,
    views: () => DATA.views.length, currentView: () => state.index, frames: () => (view().tl ? view().tl.frameCycle.length : 0),
    setJoint(k, value) { const v = view(); v.robot.q[k] = value; syncSliders(v); updateRobot(v); },
    // a configuration in the robot's coordinate order (actuated joints, URDF order)
    setConfiguration(values) {
      const v = view();
      v.robot.data.joints.forEach((j, k) => { if (j.coordinate !== null && j.coordinate !== undefined) v.robot.q[k] = values[j.coordinate]; });
      syncSliders(v);
      updateRobot(v);
    },
    // the page's GJK between objects i and j of the current view, at their current poses
    distance(i, j) { return objectDistance(view(), i, j); },
    renderNow() { render(); },
  };
  document.body.dataset.ready = '1';
})();
