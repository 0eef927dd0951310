// Runs the proxima binary the tests exercise (PROXIMA_BIN, else the workspace's release build).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = process.env.PROXIMA_BIN || path.join(ROOT, 'target/release/proxima');
export const OUT = path.join(ROOT, 'target/browser-tests');

export function proxima(args) {
  if (!fs.existsSync(BIN)) {
    throw new Error(`no proxima binary at ${BIN}: run cargo build --release -p proxima-cli first (or set PROXIMA_BIN)`);
  }
  return execFileSync(BIN, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function jsonLines(text) {
  return text.split('\n').filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l));
}

// `proxima demo --suite workcell --format json` into `dir`: the trace lines and the summary
// (the last line).
export function demo(dir, extra = []) {
  fs.mkdirSync(dir, { recursive: true });
  const lines = jsonLines(proxima(['demo', '--suite', 'workcell', '--format', 'json', '--out', dir, ...extra]));
  return { trace: lines.slice(0, -1), summary: lines[lines.length - 1], page: path.join(dir, 'index.html') };
}

// a and b agree to `digits` significant digits
export function sameDigits(a, b, digits = 6) {
  return Number(a).toPrecision(digits) === Number(b).toPrecision(digits);
}
