import { createHash } from 'node:crypto';
import { sha256Hex } from '../fs/state-tracker.js';
import { textSlices } from '../text/text-slices.js';

/** JSON with object keys sorted at every level: equal arguments give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

/**
 * SHA-256 (hex) of canonicalJson(value), without building that string when the value
 * holds a long string: the JSON is fed to the hash a piece at a time. A 40 MB
 * `content` is then never held a second time as JSON (nor a third while
 * JSON.stringify's pieces are joined).
 */
export function canonicalJsonDigest(value: unknown): string {
  const sorted = sortKeys(value);
  if (!holdsLongString(sorted, 0)) return sha256Hex(JSON.stringify(sorted) ?? 'undefined');
  const hash = createHash('sha256');
  writeJson(sorted, (piece) => hash.update(piece));
  return hash.digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Strings longer than this are escaped (and hashed) a slice at a time. */
const SLICE = 1 << 16;

function holdsLongString(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.length > SLICE;
  if (!value || typeof value !== 'object' || depth > 64) return false;
  return Object.values(value).some((v) => holdsLongString(v, depth + 1));
}

/** Writes the JSON of a sortKeys result in pieces: exactly JSON.stringify's text. */
function writeJson(value: unknown, out: (piece: string) => void): void {
  if (typeof value === 'string' && value.length > SLICE) {
    writeLongString(value, out);
    return;
  }
  const container =
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  if (!container) {
    out(JSON.stringify(value) ?? 'null'); // in an array, undefined, functions and symbols are null
    return;
  }
  if (Array.isArray(value)) {
    out('[');
    value.forEach((item, i) => {
      if (i > 0) out(',');
      writeJson(item, out);
    });
    out(']');
    return;
  }
  out('{');
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    out(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    writeJson(item, out);
  }
  out('}');
}

function writeLongString(value: string, out: (piece: string) => void): void {
  out('"');
  for (const slice of textSlices(value, SLICE)) out(JSON.stringify(slice).slice(1, -1));
  out('"');
}
