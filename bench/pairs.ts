import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../src/contract/approval-types.js';

/** A timing of a call that failed is meaningless: a tool outcome with `ok: false` stops the bench. */
export function mustSucceed(result: unknown): void {
  const outcome = result as { ok?: unknown; error?: { code: string; message: string } } | null;
  if (outcome && typeof outcome === 'object' && outcome.ok === false)
    throw new Error(`bench call failed: ${outcome.error?.code}: ${outcome.error?.message}`);
}

export interface Paired {
  /** Median of the per-pair ratios tool / baseline. */
  ratio: number;
  toolMs: number;
  baselineMs: number;
  /** With a second baseline (see paired's options): the same against it. */
  second?: { ratio: number; baselineMs: number };
}

export const medianOf = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function timed(fn: () => unknown, check: boolean): Promise<number> {
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  if (check) mustSucceed(result);
  return ms;
}

/**
 * Baseline and tool timed as interleaved pairs (baseline, tool, baseline, tool …),
 * each pair's ratio taken, and the median of those ratios reported: machine drift
 * lands on both halves of a pair, so it cancels instead of landing in the ratio.
 * `setup` runs untimed before every call; one warm-up pair is not counted.
 */
export async function paired(
  pairs: number,
  baseline: () => unknown,
  tool: () => unknown,
  setup?: () => unknown,
  options: { toolMayFail?: boolean; secondBaseline?: () => unknown; warmup?: number } = {},
): Promise<Paired> {
  // Untimed pairs first: the JIT compiles both sides before anything is measured.
  const warmup = options.warmup ?? 1;
  const ratios: number[] = [];
  const toolTimes: number[] = [];
  const baseTimes: number[] = [];
  const secondRatios: number[] = [];
  const secondTimes: number[] = [];
  for (let i = 0; i < warmup + pairs; i++) {
    await setup?.();
    const b = await timed(baseline, true);
    let b2 = 0;
    if (options.secondBaseline) {
      await setup?.();
      b2 = await timed(options.secondBaseline, true);
    }
    await setup?.();
    const t = await timed(tool, !options.toolMayFail);
    if (i < warmup) continue;
    ratios.push(t / b);
    toolTimes.push(t);
    baseTimes.push(b);
    secondRatios.push(t / b2);
    secondTimes.push(b2);
  }
  return {
    ratio: medianOf(ratios),
    toolMs: medianOf(toolTimes),
    baselineMs: medianOf(baseTimes),
    ...(options.secondBaseline
      ? { second: { ratio: medianOf(secondRatios), baselineMs: medianOf(secondTimes) } }
      : {}),
  };
}

/**
 * The floor any correct edit must pay at least: read, SHA-256, replace, write a
 * temp file, rename. With `fsync`, the temp file's data and the directory are
 * synced as the tools do (same durability contract).
 */
export async function floorEdit(
  file: string,
  oldText: string,
  newText: string,
  fsync: boolean,
): Promise<void> {
  const text = await fs.promises.readFile(file, 'utf8');
  createHash('sha256').update(text).digest('hex');
  const next = text.replace(oldText, () => newText);
  const temp = `${file}.floor.tmp`;
  const handle = await fs.promises.open(temp, 'w');
  await handle.writeFile(next);
  if (fsync) await handle.sync();
  await handle.close();
  await fs.promises.rename(temp, file);
  if (fsync) {
    const dir = await fs.promises.open(path.dirname(file), 'r');
    await dir.sync();
    await dir.close();
  }
}

/**
 * A file's text as written before each timed call: the text and a last line that
 * differs every time. Without it every call would see the bytes the call before saw,
 * and the tools' short-lived memos (a text decoded, an edit computed, keyed by the
 * bytes' SHA-256) would answer instead of the work being done: a repeated identical
 * call is not what an agent makes. The floor reads the same kind of bytes.
 */
export function nonced(text: string, run: number): string {
  return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}// reset ${run}\n`;
}

/**
 * An approval callback that reads the payload's diff (or content preview) before it
 * approves, as a screen showing the request does: a payload diff is written only
 * when first read, so a bench of the approval path must read it to count it.
 */
export function readingApproval(): (request: ApprovalRequest) => ApprovalDecision {
  return (request) => {
    const payload = request.payload as { unifiedDiff?: unknown; preview?: unknown };
    void (payload.unifiedDiff ?? payload.preview);
    return { approved: true };
  };
}
