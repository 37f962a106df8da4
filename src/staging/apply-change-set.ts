import fs from 'node:fs/promises';
import path from 'node:path';
import type { ToolErrorInfo } from '../contract/tool-outcome.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { toErrorInfo } from '../tools/tool-error.js';
import {
  ApplyInterrupted,
  applyGroup,
  type Expected,
  type GroupOp,
  type StepHook,
  type WrittenFile,
} from './apply-group.js';
import {
  type BaseSide,
  type ChangeSet,
  type ChangeSetFile,
  changeSetTampered,
  sideBytes,
} from './change-set.js';
import { createPlace } from './create-place.js';
import type { FileDecision, ReviewDecisions } from './decisions.js';
import { applyHunks } from './hunks.js';
import { summarize } from './summary.js';

export type FileOutcomeKind = 'applied' | 'partly_applied' | 'edited' | 'rejected';

/** What happened to one file of a reviewed set (what the model is told). */
export interface FileOutcome {
  path: string;
  status: ChangeSetFile['status'];
  movedFrom?: string;
  outcome: FileOutcomeKind;
  /** For partly applied files: counts and the rejected hunks' places (1-based staged line) and notes. */
  hunks?: { accepted: number; rejected: number; rejectedAt: { line: number; note?: string }[] };
  note?: string;
}

/** What an undo needs: per file, the state before and after the apply (plain JSON). */
export interface AppliedChangeSet {
  changeSetId: string;
  files: { path: string; before: BaseSide; after: WrittenFile }[];
}

export type ApplyResult =
  | { ok: true; files: FileOutcome[]; applied: AppliedChangeSet; summary: string }
  | { ok: false; files: FileOutcome[]; error: ToolErrorInfo; summary: string };

interface Planned {
  outcome: FileOutcome;
  content?: Buffer | null;
}

function plan(file: ChangeSetFile, decision: FileDecision | undefined): Planned {
  const base: FileOutcome = {
    path: file.path,
    status: file.status,
    ...(file.movedFrom ? { movedFrom: file.movedFrom } : {}),
    outcome: 'rejected',
    ...(decision?.note ? { note: decision.note } : {}),
  };
  const staged = file.staged.exists ? sideBytes(file.staged) : null;
  if (!decision || decision.action === 'reject') return { outcome: base };
  if (decision.action === 'accept') return { outcome: { ...base, outcome: 'applied' }, content: staged };
  if (decision.action === 'edit')
    return { outcome: { ...base, outcome: 'edited' }, content: Buffer.from(decision.content, 'utf8') };
  const accepted = new Set(file.hunks.filter((h) => decision.hunks[h.id] === 'accept').map((h) => h.id));
  if (file.binary || accepted.size === 0) return { outcome: base };
  if (accepted.size === file.hunks.length)
    return { outcome: { ...base, outcome: 'applied' }, content: staged };
  const origin = file.sourceBase ?? file.base;
  const text = applyHunks(origin.text ?? '', file.hunks, accepted);
  const rejectedAt = file.hunks
    .filter((h) => !accepted.has(h.id))
    .map((h) => ({
      line: h.newIndex + 1,
      ...(decision.notes?.[h.id] ? { note: decision.notes[h.id] } : {}),
    }));
  return {
    outcome: {
      ...base,
      outcome: 'partly_applied',
      hunks: { accepted: accepted.size, rejected: rejectedAt.length, rejectedAt },
    },
    content: Buffer.from(text, 'utf8'),
  };
}

const expected = (side: BaseSide): Expected =>
  side.exists
    ? {
        exists: true,
        sha256: side.sha256!,
        ...(side.dev === undefined ? {} : { dev: side.dev, ino: side.ino! }),
      }
    : { exists: false, ...(side.place !== undefined ? { place: side.place } : {}) };

function op(sandbox: Sandbox, path: string, before: BaseSide, final: GroupOp['final']): GroupOp {
  const resolved = sandbox.resolve(path, 'write');
  return {
    virtualPath: resolved.virtualPath,
    hostPath: resolved.hostPath,
    realRoot: resolved.mount.realRoot,
    expect: expected(before),
    final,
  };
}

/**
 * Applies a reviewed change set: each file becomes its base plus exactly the
 * accepted hunks, the person's version, or the staged file; rejected files are
 * not touched. All or nothing (see applyGroup): when any base changed on disk,
 * nothing is written and the error names the file.
 */
export async function applyChangeSet(
  sandbox: Sandbox,
  set: ChangeSet,
  decisions: ReviewDecisions,
  options: { hook?: StepHook } = {},
): Promise<ApplyResult> {
  const tampered = changeSetTampered(set);
  if (tampered !== undefined) {
    const error = {
      code: 'stale_approval' as const,
      message: `This change set was altered after it was built (${tampered}). Nothing was applied; stage and review the changes again.`,
    };
    return { ok: false, files: [], error, summary: summarize([], decisions?.note, error) };
  }
  const planned = set.files.map((f) => ({ file: f, ...plan(f, decisions.files[f.path]) }));
  const outcomes = planned.map((p) => p.outcome);
  const fail = (error: ToolErrorInfo): ApplyResult => ({
    ok: false,
    files: outcomes,
    error,
    summary: summarize(outcomes, decisions.note, error),
  });
  if (decisions.changeSetId !== set.id) {
    return fail({
      code: 'stale_approval',
      message:
        'These decisions were made for a different change set (it changed after the review was shown). Nothing was applied; review the current set.',
    });
  }
  const ops: GroupOp[] = [];
  const undo: AppliedChangeSet['files'] = [];
  let at = '';
  try {
    for (const p of planned) {
      if (p.content === undefined) continue;
      const f = p.file;
      at = f.path;
      const mode = f.staged.mode ?? f.sourceBase?.mode ?? f.base.mode ?? 0o644;
      ops.push(op(sandbox, f.path, f.base, p.content === null ? null : { data: p.content, mode }));
      undo.push({ path: f.path, before: f.base, after: { virtualPath: f.path, sha256: null } });
      if (f.movedFrom && f.sourceBase) {
        at = f.movedFrom;
        ops.push(op(sandbox, f.movedFrom, f.sourceBase, null));
        undo.push({
          path: f.movedFrom,
          before: f.sourceBase,
          after: { virtualPath: f.movedFrom, sha256: null },
        });
      }
    }
  } catch (error) {
    const info = toErrorInfo(error);
    // What is at a reviewed path now is not a file any more (a FIFO, a directory …): it was
    // replaced after the review was shown, like any other change of a reviewed file.
    if (info.code === 'not_a_file')
      return fail({
        code: 'stale_approval',
        message: `${at} is no longer a regular file: it was replaced after the changes were reviewed. Nothing was applied; read the file again and stage the change anew.`,
      });
    return fail(info);
  }
  // A directory to create must still be missing: anything that appeared at its path since the
  // review (a file, a link, another directory) makes the set stale, before anything is applied.
  const accepted = set.directories.filter((dir) => decisions.files[dir]?.action === 'accept');
  for (const dir of accepted) {
    let kind: string;
    try {
      kind = sandbox.resolve(dir, 'list').kind;
    } catch (error) {
      const info = toErrorInfo(error);
      kind = info.code === 'not_found' ? 'missing' : info.code;
    }
    if (kind === 'missing' && !stillPlaced(sandbox, dir, set.directoryPlaces?.[dir]))
      return fail({
        code: 'stale_approval',
        message: `A directory on the way to ${dir} was replaced after the changes were reviewed. Nothing was applied; stage the change anew.`,
      });
    if (kind !== 'missing')
      return fail({
        code: 'stale_approval',
        message: `${dir} was to be created, but something appeared at that path after the changes were reviewed. Nothing was applied; stage the change anew.`,
      });
  }
  let result: Awaited<ReturnType<typeof applyGroup>>;
  try {
    result = await applyGroup(ops, options.hook);
  } catch (error) {
    // After the commit point the journal finishes the set (recoverChangeSets): never "nothing applied".
    if (error instanceof ApplyInterrupted) throw error;
    // Failed before the commit point (rolled back): nothing was applied.
    const info = toErrorInfo(error);
    return fail({ ...info, message: `${info.message} Nothing was applied.` });
  }
  if (!result.ok) {
    return fail({
      code: 'stale_approval',
      message: `${result.conflict.reason}. Nothing was applied; read the file again and stage the change anew.`,
      details: { path: result.conflict.path },
    });
  }
  // Empty directories the agent created, each only when the reviewer accepted it (like a file,
  // one not named is rejected): made now (a directory holds nothing to roll back).
  for (const dir of accepted) {
    try {
      await fs.mkdir(sandbox.resolve(dir, 'write').hostPath, { recursive: true });
    } catch {
      // exists already (or is no longer writable): nothing to create
    }
  }
  undo.forEach((u, i) => {
    u.after = result.written[i]!;
  });
  return {
    ok: true,
    files: outcomes,
    applied: { changeSetId: set.id, files: undo },
    summary: summarize(outcomes, decisions.note),
  };
}

/** Restores every file of an applied set to its state before, as one group; refused if any file changed since. */
export async function undoChangeSet(
  sandbox: Sandbox,
  applied: AppliedChangeSet,
  options: { hook?: StepHook } = {},
): Promise<{ ok: true; restored: string[] } | { ok: false; error: ToolErrorInfo }> {
  const ops = applied.files.map((f) => {
    const after: BaseSide = f.after.sha256
      ? {
          exists: true,
          sha256: f.after.sha256,
          ...(f.after.dev === undefined ? {} : { dev: f.after.dev, ino: f.after.ino }),
        }
      : { exists: false, sha256: null };
    return op(
      sandbox,
      f.path,
      after,
      f.before.exists ? { data: sideBytes(f.before), mode: f.before.mode ?? 0o644 } : null,
    );
  });
  const result = await applyGroup(ops, options.hook);
  if (!result.ok) {
    return {
      ok: false,
      error: {
        code: 'stale_approval',
        message: `${result.conflict.reason.replace('since it was staged', 'since the change set was applied')}. Nothing was undone.`,
        details: { path: result.conflict.path },
      },
    };
  }
  return { ok: true, restored: applied.files.map((f) => f.path) };
}

/** Whether a directory to create still goes where it was staged to (no recorded place: nothing to check). */
function stillPlaced(sandbox: Sandbox, dir: string, place: string | undefined): boolean {
  if (place === undefined) return true;
  // The host path it would be made at: the deepest existing directory as the sandbox
  // resolves it (links followed and contained), and the missing names below it.
  const missing: string[] = [];
  for (let current = dir; ; current = path.posix.dirname(current)) {
    try {
      const found = sandbox.resolve(current, 'list');
      return createPlace(path.join(found.hostPath, ...missing)) === place;
    } catch {
      if (current === '/' || path.posix.dirname(current) === current) return false;
      missing.unshift(path.posix.basename(current));
    }
  }
}
