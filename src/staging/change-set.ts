import { createHash } from 'node:crypto';
import { computeHunks, type Hunk } from './hunks.js';
import type { BaseState, OverlayEntry, StagingOverlay } from './overlay.js';

export type ChangeStatus = 'created' | 'modified' | 'deleted' | 'moved';

/** A file's content in a change set: text, or base64 for binary content; absent when the file does not exist. */
export interface FileSide {
  exists: boolean;
  sha256: string | null;
  text?: string;
  base64?: string;
  mode?: number;
}

/** The base side also carries the identity apply verifies (dev+ino). */
export interface BaseSide extends FileSide {
  dev?: number;
  ino?: number;
  /** For a file to create: where it would be created (its real path and the directory on the way). */
  place?: string;
}

export interface ChangeSetFile {
  /** Virtual path of the result. */
  path: string;
  status: ChangeStatus;
  /** For `moved`: where the content came from (deleted when the move is applied). */
  movedFrom?: string;
  /** The file at `path` before any change (what must still be on disk at apply). */
  base: BaseSide;
  /** For `moved`: the source file before any change (also verified at apply). */
  sourceBase?: BaseSide;
  staged: FileSide;
  binary: boolean;
  /** Changes from the origin (the base, or the source of a move) to the staged content. */
  hunks: Hunk[];
  added: number;
  removed: number;
}

/** Everything an agent staged, as plain JSON (a web app can keep it between requests). */
export interface ChangeSet {
  version: 1;
  /** Sha-256 over the files, hunks and bases: decisions are bound to it. */
  id: string;
  files: ChangeSetFile[];
  /** Directories created in staging (kept when their files are applied). */
  directories: string[];
  /** Where each of them goes, as when staged (see createPlace): checked when it is created. */
  directoryPlaces?: Record<string, string>;
  stats: { files: number; added: number; removed: number };
}

const textOf = (data: Buffer): string | undefined => {
  if (data.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return undefined;
  }
};

function side(state: { exists: boolean; data?: Buffer; sha256: string | null; mode?: number }): FileSide {
  if (!state.exists || !state.data) return { exists: false, sha256: null };
  const text = textOf(state.data);
  return {
    exists: true,
    sha256: state.sha256,
    ...(text === undefined ? { base64: state.data.toString('base64') } : { text }),
    ...(state.mode === undefined ? {} : { mode: state.mode }),
  };
}

function baseSide(base: BaseState): BaseSide {
  return {
    ...side(base),
    ...(base.exists ? { dev: base.dev, ino: base.ino } : {}),
    ...(base.place !== undefined ? { place: base.place } : {}),
  };
}

/** The bytes of one side (empty for a missing file). */
export function sideBytes(s: FileSide): Buffer {
  if (!s.exists) return Buffer.alloc(0);
  return s.text !== undefined ? Buffer.from(s.text, 'utf8') : Buffer.from(s.base64 ?? '', 'base64');
}

/** Builds the change set from the overlay: unchanged files are left out, moves are paired with their source. */
export function buildChangeSet(overlay: StagingOverlay): ChangeSet {
  const entries = overlay.all();
  const byPath = new Map(entries.map((e) => [e.virtualPath, e]));
  const consumedSources = new Set<string>();
  const files: ChangeSetFile[] = [];
  for (const e of entries) {
    if (e.staged && e.movedFrom) {
      const source = byPath.get(e.movedFrom);
      if (source?.base.exists && source.staged === null) consumedSources.add(source.virtualPath);
    }
  }
  for (const e of entries) {
    if (consumedSources.has(e.virtualPath)) continue;
    const file = describe(e, byPath);
    if (file) files.push(file);
  }
  const staged = overlay.directories().sort((a, b) => (a.virtualPath < b.virtualPath ? -1 : 1));
  const directories = staged.map((d) => d.virtualPath);
  const directoryPlaces = Object.fromEntries(staged.map((d) => [d.virtualPath, d.place]));
  const stats = {
    files: files.length,
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
  };
  return {
    version: 1,
    id: changeSetId(files, directories, directoryPlaces),
    files,
    directories,
    directoryPlaces,
    stats,
  };
}

function describe(e: OverlayEntry, byPath: Map<string, OverlayEntry>): ChangeSetFile | undefined {
  const source = e.movedFrom ? byPath.get(e.movedFrom) : undefined;
  const moved = e.staged !== null && source !== undefined && source.base.exists && source.staged === null;
  const origin = moved ? source!.base : e.base;
  const stagedSha = e.staged?.sha256 ?? null;
  if (!moved && origin.sha256 === stagedSha) return undefined;
  const status: ChangeStatus = moved
    ? 'moved'
    : !e.staged
      ? 'deleted'
      : e.base.exists
        ? 'modified'
        : 'created';
  const staged = side(e.staged ? { exists: true, ...e.staged } : { exists: false, sha256: null });
  const from = side(origin);
  const binary = (from.exists && from.text === undefined) || (staged.exists && staged.text === undefined);
  const hunks = binary ? [] : computeHunks(e.virtualPath, from.text ?? '', staged.text ?? '');
  return {
    path: e.virtualPath,
    status,
    ...(moved ? { movedFrom: source!.virtualPath, sourceBase: baseSide(source!.base) } : {}),
    base: baseSide(e.base),
    staged,
    binary,
    hunks,
    added: hunks.reduce((n, h) => n + h.added.length, 0),
    removed: hunks.reduce((n, h) => n + h.removed.length, 0),
  };
}

function changeSetId(
  files: ChangeSetFile[],
  directories: readonly string[],
  places: Record<string, string> = {},
): string {
  const h = createHash('sha256');
  // The directories to create are part of what is reviewed: one added later changes the id.
  for (const d of directories) h.update(`dir\0${d}\0${places[d] ?? '-'}\0`);
  for (const f of files) {
    h.update(
      `${f.path}\0${f.status}\0${f.movedFrom ?? ''}\0${f.base.sha256 ?? '-'}\0${f.sourceBase?.sha256 ?? '-'}\0${f.staged.sha256 ?? '-'}\0`,
    );
    // What apply checks on disk is covered too: a client cannot point it at another file or place.
    h.update(`${f.base.dev ?? '-'}:${f.base.ino ?? '-'}\0${f.base.place ?? '-'}\0`);
    if (f.sourceBase) h.update(`${f.sourceBase.dev ?? '-'}:${f.sourceBase.ino ?? '-'}\0`);
    for (const hunk of f.hunks) h.update(`${hunk.id}\0`);
  }
  return h.digest('hex');
}

const isSide = (s: unknown): s is FileSide =>
  typeof s === 'object' && s !== null && typeof (s as FileSide).exists === 'boolean';

/**
 * Why a change set that travelled (serialised, held by a client between requests)
 * is not the one that was built, or undefined when it is: its id must fingerprint
 * its files, and every side's content must hash to the sha256 the id covers. A
 * set altered anywhere is refused before anything is applied.
 */
export function changeSetTampered(set: ChangeSet): string | undefined {
  if (!set || !Array.isArray(set.files)) return 'the change set has no file list';
  for (const f of set.files) {
    if (!f || typeof f.path !== 'string' || !isSide(f.base) || !isSide(f.staged) || !Array.isArray(f.hunks))
      return `the entry for ${String(f?.path)} is malformed`;
    for (const side of [f.staged, f.base, ...(f.sourceBase ? [f.sourceBase] : [])]) {
      if (!isSide(side)) return `the entry for ${f.path} is malformed`;
      const sha = side.exists ? createHash('sha256').update(sideBytes(side)).digest('hex') : null;
      if (side.exists && (side.text !== undefined || side.base64 !== undefined) && sha !== side.sha256)
        return `the content recorded for ${f.path} does not match its hash`;
      if (!side.exists && side.sha256 !== null && side.sha256 !== undefined)
        return `the entry for ${f.path} is inconsistent`;
    }
  }
  if (!Array.isArray(set.directories) || set.directories.some((d) => typeof d !== 'string'))
    return 'its directory list is malformed';
  const places = set.directoryPlaces ?? {};
  if (typeof places !== 'object' || Object.values(places).some((p) => typeof p !== 'string'))
    return 'its directory places are malformed';
  return changeSetId(set.files, set.directories, places) === set.id
    ? undefined
    : 'its id does not match its files';
}
