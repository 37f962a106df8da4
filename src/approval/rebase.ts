import type { ApprovalResult } from '../contract/approval-types.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import type { ApprovalBinding } from './approval-binding.js';

/**
 * Native mode answers a whole batch of pending calls before any of them runs, so
 * two approved edits of one file were both shown against the same state; once
 * the first is applied, the second would be refused as stale. It may go ahead on
 * the new state only when nothing but approved calls changed the file in between
 * AND it makes exactly the change it was shown: every hunk the same (context,
 * removed and added lines), at the position its lines moved to, with none of
 * those lines touched by the calls in between. Anything else stays stale_approval.
 */

/**
 * How an approved call changed a file: the state it started from and where its diff's
 * lines went (undefined: not known). Only the hunks' positions and line kinds are
 * kept, not the diff's text: a session's chain would otherwise hold every diff it
 * approved (a big file's, several times its size).
 */
export interface AppliedStep {
  before: string;
  moves: LineMoves | undefined;
}

/** A diff's hunks as positions and line kinds (' ', '-', '+', one per body line): enough to follow a line through it. */
export type LineMoves = ReadonlyArray<Readonly<Omit<Hunk, 'body'> & { kinds: string }>>;

/** Where the lines of `diff` go (see LineMoves). */
export function lineMovesOf(diff: string | undefined): LineMoves | undefined {
  if (diff === undefined) return undefined;
  return parseHunks(diff).map(({ body, ...at }) => ({ ...at, kinds: body.map((l) => l[0]).join('') }));
}

/**
 * File states produced by approved calls, per file: chainKey(file, after-sha) → step.
 * Keyed by the file (its slot: directory identity and name), never by content
 * alone: two files with equal bytes do not share a chain.
 */
export type AppliedChain = Map<string, AppliedStep>;

/** The file a binding acts on, as a chain key prefix (its slot when known, else the path shown). */
function fileKey(binding: Pick<ApprovalBinding, 'targets' | 'shownPath'>): string {
  return binding.targets?.path?.slot ?? `path ${binding.shownPath}`;
}

/** The chain key of a state of the file a binding acts on. */
export function chainKey(binding: Pick<ApprovalBinding, 'targets' | 'shownPath'>, sha256: string): string {
  return `${fileKey(binding)}\0${sha256}`;
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  body: string[];
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const line of diff.split('\n')) {
    const m = HEADER.exec(line);
    if (m) {
      hunks.push({
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        body: [],
      });
    } else if (hunks.length > 0 && /^[ +-]/.test(line)) hunks.at(-1)!.body.push(line);
  }
  return hunks;
}

/** Where old line `line` is after the change `hunks`; undefined if the change removed or replaced it. */
export function mapLine(line: number, hunks: LineMoves): number | undefined {
  let delta = 0;
  for (const h of hunks) {
    if (h.oldLines === 0) {
      // A pure insertion after old line oldStart.
      if (line <= h.oldStart) return line + delta;
      delta += h.newLines;
      continue;
    }
    if (line < h.oldStart) return line + delta;
    if (line >= h.oldStart + h.oldLines) {
      delta += h.newLines - h.oldLines;
      continue;
    }
    let o = h.oldStart;
    let n = h.newStart;
    for (const kind of h.kinds) {
      if (kind === '+') n++;
      else if (kind === '-') {
        if (o === line) return undefined;
        o++;
      } else {
        if (o === line) return n;
        o++;
        n++;
      }
    }
    return undefined;
  }
  return line + delta;
}

/** The approved steps from `from` to `to`, oldest first; undefined unless `to` was reached through them only. */
function stepsBetween(chain: AppliedChain, file: string, from: string, to: string): LineMoves[] | undefined {
  const steps: LineMoves[] = [];
  let state = to;
  for (let n = 0; n < 1000; n++) {
    if (state === from) return steps.reverse();
    const step = chain.get(`${file}\0${state}`);
    if (!step || step.moves === undefined) return undefined;
    steps.push(step.moves);
    state = step.before;
  }
  return undefined;
}

/** Whether an earlier approved call of the batch changed the file a binding acts on. */
export function changedByBatch(
  chain: AppliedChain,
  binding: Pick<ApprovalBinding, 'targets' | 'shownPath'>,
): boolean {
  const prefix = `${fileKey(binding)}\0`;
  for (const key of chain.keys()) if (key.startsWith(prefix)) return true;
  return false;
}

/**
 * A stale_approval of a call whose file an earlier approved call of the same batch
 * changed says so (the tool layer can only say the file is not the one shown).
 */
export function batchStale(outcome: ToolOutcome, path: string, edited: boolean): ToolOutcome {
  if (outcome.ok || outcome.error.code !== 'stale_approval') return outcome;
  const why = edited
    ? 'the person edited this call, and an edited call runs only on the file exactly as it was shown'
    : 'this change could not be moved onto that state unchanged (the lines it shows were touched, or moved out of place)';
  return {
    ok: false,
    error: {
      ...outcome.error,
      message: `${path} was changed by an earlier approved call of the same batch after this call was shown, and ${why}. Nothing was written. Read the file again and make the call again to have it approved as it is now.`,
    },
  };
}

/**
 * The states to bind a natively approved edit to when the file moved on since
 * it was shown: the current ones if the rebase rule above holds, else undefined
 * (the call then runs against the approved state and fails as stale).
 */
export function rebasedContext(
  binding: ApprovalBinding,
  result: Extract<ApprovalResult, { status: 'needs_approval' }>,
  chain: AppliedChain,
): ToolCallContext | undefined {
  const now = result.payload;
  // The same file, reached the same way (its inode changed: approved writes replace it atomically).
  const was = binding.targets?.path;
  const is = result.targets?.path;
  if (was || is) {
    if (
      !was ||
      !is ||
      was.slot !== is.slot ||
      was.path !== is.path ||
      was.via.join('\0') !== is.via.join('\0')
    )
      return undefined;
  }
  const current = now.baseSha256;
  const diff = (now as { unifiedDiff?: unknown }).unifiedDiff;
  const coarse = (now as { diffCoarse?: unknown }).diffCoarse === true;
  if (typeof current !== 'string' || typeof binding.baseSha256 !== 'string') return undefined;
  if (binding.shownDiff === undefined || typeof diff !== 'string' || coarse) return undefined;
  if (now.path !== binding.shownPath || current === binding.baseSha256) return undefined;
  const steps = stepsBetween(chain, fileKey(binding), binding.baseSha256, current);
  if (!steps) return undefined;
  const shown = parseHunks(binding.shownDiff);
  const again = parseHunks(diff);
  if (shown.length === 0 || shown.length !== again.length) return undefined;
  for (let i = 0; i < shown.length; i++) {
    if (!sameHunkAt(shown[i]!, again[i]!, steps)) return undefined;
  }
  return {
    approvedBaseSha256: current,
    ...(now.type === 'lines' ? { approvedAnchorsSha256: now.anchorsSha256 ?? null } : {}),
    ...(result.targets ? { approvedTargets: result.targets } : {}),
  };
}

/** Same body, and every old line of the shown hunk carried, untouched, to the new hunk's lines. */
function sameHunkAt(shown: Hunk, again: Hunk, steps: readonly LineMoves[]): boolean {
  if (shown.oldLines === 0 || shown.body.join('\n') !== again.body.join('\n')) return false;
  for (let k = 0; k < shown.oldLines; k++) {
    let line: number | undefined = shown.oldStart + k;
    for (const step of steps) {
      line = mapLine(line, step);
      if (line === undefined) return false;
    }
    if (line !== again.oldStart + k) return false;
  }
  return true;
}
