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
 * Baseline and tool timed as interleaved pairs (baseline, tool, tool, baseline …),
 * each pair's ratio taken, and the median of those ratios reported: machine drift
 * lands on both halves of a pair, so it cancels instead of landing in the ratio.
 * `setup` runs untimed before every call; one warm-up pair is not counted.
 */
export async function paired(
  pairs: number,
  baseline: () => unknown,
  tool: () => unknown,
  setup?: () => unknown,
  options: {
    toolMayFail?: boolean;
    secondBaseline?: () => unknown;
    warmup?: number;
    /**
     * Sampling by time, for calls whose cost is unknown in advance: warm-up pairs go on
     * (past `warmup`) until `warmupMs` of pair time is spent, and measured pairs (past
     * `pairs`) until `measureMs`, at most `maxPairs` in all. A few-ms call then gets
     * dozens of pairs (one slow pair cannot move its median) and a 300 ms call `pairs`.
     */
    warmupMs?: number;
    measureMs?: number;
    maxPairs?: number;
  } = {},
): Promise<Paired> {
  // Untimed pairs first: the JIT compiles both sides before anything is measured.
  let warmup = options.warmup ?? 1;
  let target = pairs;
  const maxPairs = Math.max(pairs, options.maxPairs ?? pairs);
  let warmupSpent = 0;
  let measureSpent = 0;
  const ratios: number[] = [];
  const toolTimes: number[] = [];
  const baseTimes: number[] = [];
  const secondRatios: number[] = [];
  const secondTimes: number[] = [];
  const members: Array<'base' | 'second' | 'tool'> = options.secondBaseline
    ? ['base', 'second', 'tool']
    : ['base', 'tool'];
  const orders = permutations(members);
  for (let i = 0; i < warmup + target; i++) {
    // Each pair in another order: what ran just before a call shifts its time (a call right
    // after an fsync-heavy one ran about 7% slower), so no side always follows the same one.
    const times = { base: 0, second: 0, tool: 0 };
    for (const member of orders[i % orders.length]!) {
      await setup?.();
      if (member === 'base') times.base = await timed(baseline, true);
      else if (member === 'second') times.second = await timed(options.secondBaseline!, true);
      else times.tool = await timed(tool, !options.toolMayFail);
    }
    const { base: b, second: b2, tool: t } = times;
    if (i < warmup) {
      warmupSpent += b + b2 + t;
      // One more warm-up pair while the time asked for is not spent (bounded like the pairs).
      if (i === warmup - 1 && warmupSpent < (options.warmupMs ?? 0) && warmup < maxPairs) warmup++;
      continue;
    }
    measureSpent += b + b2 + t;
    if (i === warmup + target - 1 && measureSpent < (options.measureMs ?? 0) && target < maxPairs) target++;
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

/** Every order of `items` (a handful: 2 or 3 members). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
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
