import { canonicalJson } from './canonical-json.js';

/**
 * One call's arguments, captured once: the canonical JSON (object keys sorted)
 * and a deep-frozen copy parsed back from it. Getters are read exactly once,
 * here; nothing that happens to the caller's object afterwards (a mutating
 * approval callback, a getter returning something else the second time) can
 * change what is shown, what is bound, or what runs.
 */
export interface CallArguments {
  readonly json: string;
  readonly value: unknown;
}

export function captureArguments(args: unknown): CallArguments {
  if (args === undefined) return { json: 'undefined', value: undefined };
  // One pass over the caller's object (key order kept for descriptions), then only the copy is used.
  const copy: unknown = JSON.parse(JSON.stringify(args) ?? 'null');
  return { json: canonicalJson(copy), value: deepFreeze(copy) };
}

/** Parses stored canonical JSON back into frozen arguments. */
export function argumentsFromJson(json: string): CallArguments {
  return json === 'undefined' ? { json, value: undefined } : { json, value: deepFreeze(JSON.parse(json)) };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The request as handed to an approval callback: its own copies of the arguments
 * and payload. Whatever the callback does to them, the layer keeps using its
 * originals (for what runs, for what is remembered, for the binding).
 */
export function requestCopy<R extends { args: unknown; payload: unknown; previewEdit?: unknown }>(
  request: R,
): R {
  const copy = { ...request, args: structuredClone(request.args), payload: structuredClone(request.payload) };
  return withPreview(copy, request.previewEdit);
}

/** Attaches a request's previewEdit function, not enumerable: the request stays plain data when copied or serialised. */
export function withPreview<R>(request: R, preview: unknown): R {
  if (typeof preview === 'function')
    Object.defineProperty(request, 'previewEdit', { value: preview, enumerable: false });
  return request;
}
