import { SandboxError } from '../contract/errors.js';
import { isApplyEntryName } from '../contract/reserved-names.js';
import { codePointLabel, findInvisible } from '../text/invisible-chars.js';

/** Linux limits: NAME_MAX per segment and PATH_MAX for the whole path, in bytes. */
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 4096;

/**
 * A character that is never legitimate in a model-supplied path: whatever the
 * shared visibility rule draws as a token (by Unicode property: controls,
 * format and default-ignorable characters, unassigned, private-use and
 * surrogate code points, separators, non-ASCII spaces; see
 * text/invisible-chars) plus the tab. They enable display spoofing (a path that
 * renders as another) and have no honest use here.
 */
function forbiddenChar(path: string): string | undefined {
  return findInvisible(path)?.char ?? (path.includes('\t') ? '\t' : undefined);
}

/**
 * Splits a virtual path into segments after validating its characters.
 * `.` and empty segments are dropped; `..` is kept for the caller to judge
 * against mount boundaries (it must never be clamped). Relative paths are
 * taken relative to the virtual root `/`.
 */
export function splitVirtualPath(input: unknown): string[] {
  if (typeof input !== 'string') {
    throw new SandboxError('invalid_argument', 'path must be a string such as "/src/index.ts".');
  }
  if (input.trim() === '') {
    throw new SandboxError('invalid_argument', 'path is empty: give a virtual path such as "/src/index.ts".');
  }
  if (input.includes('\0')) {
    throw new SandboxError(
      'invalid_argument',
      'path contains a NUL byte; give a plain virtual path such as "/src/index.ts".',
    );
  }
  if (input.includes('\\')) {
    throw new SandboxError(
      'invalid_argument',
      'path contains a backslash; virtual paths use forward slashes, e.g. "/src/lib/util.ts".',
    );
  }
  const bad = forbiddenChar(input);
  if (bad !== undefined) {
    throw new SandboxError(
      'invalid_argument',
      `path contains the control or invisible character ${codePointLabel(bad)}; paths must be plain text.`,
    );
  }
  if (Buffer.byteLength(input, 'utf8') > MAX_PATH_BYTES) {
    throw new SandboxError('invalid_argument', `path is longer than ${MAX_PATH_BYTES} bytes.`);
  }
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
      throw new SandboxError('invalid_argument', `a path segment is longer than ${MAX_SEGMENT_BYTES} bytes.`);
    }
    if (isApplyEntryName(segment))
      throw new SandboxError(
        'path_not_in_sandbox',
        `"${segment}" is reserved for change sets being applied; no tool may read or write it. Use another name.`,
      );
    segments.push(segment);
  }
  return segments;
}

export function joinVirtual(segments: readonly string[]): string {
  return `/${segments.join('/')}`;
}

/** Segment-wise prefix test: "/data" contains "/data/x" but not "/database". */
export function isVirtualPrefix(prefix: string, candidate: string): boolean {
  if (prefix === '/') return true;
  return candidate === prefix || candidate.startsWith(`${prefix}/`);
}

/** Parses a virtual path that must not contain `..` (used for config-like inputs). */
export function normalizeStrictVirtualPath(input: unknown): string {
  const segments = splitVirtualPath(input);
  if (segments.includes('..')) {
    throw new SandboxError('invalid_argument', `"${String(input)}" must not contain ".." segments.`);
  }
  return joinVirtual(segments);
}
