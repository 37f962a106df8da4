import { sha256Hex } from '../fs/state-tracker.js';
import { lazyStringOf, shareField } from '../text/lazy-string.js';
import { canonicalJson, canonicalJsonDigest } from './canonical-json.js';

/**
 * One call's arguments, captured once: a deep-frozen copy, its canonical JSON
 * (object keys sorted) and that JSON's SHA-256. Getters are read exactly once,
 * here; nothing that happens to the caller's object afterwards (a mutating
 * approval callback, a getter returning something else the second time) can
 * change what is shown, what is bound, or what runs. The JSON and the digest are
 * derived from the frozen copy when first asked for: a call compared and sealed by
 * digest never holds a 40 MB `content` a second time as JSON.
 */
export interface CallArguments {
  readonly json: string;
  readonly digest: string;
  readonly value: unknown;
}

class Captured implements CallArguments {
  #json: string | undefined;
  #digest: string | undefined;

  constructor(
    readonly value: unknown,
    json?: string,
  ) {
    this.#json = json;
  }

  get json(): string {
    this.#json ??= canonicalJson(this.value);
    return this.#json;
  }

  get digest(): string {
    this.#digest ??= this.#json !== undefined ? sha256Hex(this.#json) : canonicalJsonDigest(this.value);
    return this.#digest;
  }
}

/**
 * Captures made here, by their frozen copy: capturing such a copy again (the
 * layer passes it on, e.g. to the binding check) gives the same capture without
 * serialising a big argument again. Only deep-frozen plain JSON data that this
 * module built is in it, so nothing about it can have changed since.
 */
const captures = new WeakMap<object, CallArguments>();

export function captureArguments(args: unknown): CallArguments {
  if (args === undefined) return new Captured(undefined, 'undefined');
  const known = typeof args === 'object' && args !== null ? captures.get(args) : undefined;
  if (known) return known;
  // One pass over the caller's object (key order kept for descriptions), then only the copy is used.
  // Plain JSON data (the usual arguments) is copied directly: the same value a JSON round trip
  // gives, without serialising and parsing a 40 MB `content` twice more.
  const plain = plainCopy(args, new Set());
  const copy: unknown = plain !== NOT_PLAIN ? plain : JSON.parse(JSON.stringify(args) ?? 'null');
  return remember(new Captured(deepFreeze(copy)));
}

const NOT_PLAIN = Symbol('not plain JSON data');

/**
 * A copy of plain JSON data — plain objects and arrays of strings, finite numbers,
 * booleans and null — each property read once (through its descriptor: a getter
 * is never called here). NOT_PLAIN for anything a JSON round trip would change or
 * that needs JSON's own rules (getters, functions such as toJSON, undefined, -0, NaN,
 * holes, other prototypes, cycles, bigint): those take the JSON round trip.
 */
function plainCopy(value: unknown, path: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return null;
  if (path.has(value) || path.size > 64) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(value);
  path.add(value);
  try {
    if (Array.isArray(value)) {
      if (proto !== Array.prototype) return NOT_PLAIN;
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        const d = Object.getOwnPropertyDescriptor(value, i);
        if (!d || !('value' in d)) return NOT_PLAIN;
        const item = plainCopy(d.value, path);
        if (item === NOT_PLAIN) return NOT_PLAIN;
        out[i] = item;
      }
      return out;
    }
    if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const d = Object.getOwnPropertyDescriptor(value, key);
      if (!d || !('value' in d)) return NOT_PLAIN;
      const item = plainCopy(d.value, path);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      // An own "__proto__" stays a property, as JSON.parse makes it.
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    path.delete(value);
  }
}

/** Parses stored canonical JSON back into frozen arguments. */
export function argumentsFromJson(json: string): CallArguments {
  return json === 'undefined'
    ? new Captured(undefined, json)
    : remember(new Captured(deepFreeze(JSON.parse(json)), json));
}

/** The SHA-256 of a value's canonical JSON: looked up when the value is a capture's frozen copy. */
export function argumentsDigestOf(value: unknown): string {
  const known = typeof value === 'object' && value !== null ? captures.get(value) : undefined;
  return known ? known.digest : canonicalJsonDigest(value);
}

function remember(captured: CallArguments): CallArguments {
  const { value } = captured;
  if (typeof value === 'object' && value !== null) captures.set(value, captured);
  return captured;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The request as handed to an approval callback: its own copies of every field
 * (arguments, payload, targets). Whatever the callback does to them, the layer keeps using its
 * originals (for what runs, for what is remembered, for the binding).
 */
export function requestCopy<R extends { args: unknown; payload: unknown; previewEdit?: unknown }>(
  request: R,
): R {
  // Every field is copied (the targets a binding checks, too), not only the ones a callback is expected to touch.
  const copy = Object.fromEntries(
    Object.entries(request).map(([key, value]) => [key, key === 'previewEdit' ? value : cloneData(value)]),
  ) as R;
  return withPreview(copy, request.previewEdit);
}

/**
 * structuredClone for plain data (objects, arrays, primitives), sharing strings:
 * a string cannot be changed, so copying a 40 MB `content` would only cost time
 * and memory. Shared references and cycles are kept as structuredClone keeps
 * them; anything else (Date, Map, a class instance …) is structuredClone'd.
 */
export function cloneData<T>(value: T): T {
  const seen = new Map<object, unknown>();
  const clone = (v: unknown): unknown => {
    if (typeof v === 'function' || typeof v === 'symbol') return structuredClone(v); // throws, as it did
    if (typeof v !== 'object' || v === null) return v;
    const done = seen.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) return structuredClone(v);
      const out: unknown[] = new Array(v.length);
      seen.set(v, out);
      for (let i = 0; i < v.length; i++) if (i in v) out[i] = clone(v[i]);
      return out;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return structuredClone(v);
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    for (const key of Object.keys(v)) {
      // A string computed when first read (a payload's diff) is copied unread: it is the same string either way.
      if (lazyStringOf(v, key)) {
        shareField(out, key, v);
        continue;
      }
      const item = clone((v as Record<string, unknown>)[key]);
      // An own "__proto__" stays a property (assigning it would set the prototype).
      if (key === '__proto__')
        Object.defineProperty(out, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[key] = item;
    }
    return out;
  };
  return clone(value) as T;
}

/** Attaches a request's previewEdit function, not enumerable: the request stays plain data when copied or serialised. */
export function withPreview<R>(request: R, preview: unknown): R {
  if (typeof preview === 'function')
    Object.defineProperty(request, 'previewEdit', { value: preview, enumerable: false });
  return request;
}
