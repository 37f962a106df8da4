/** A timing of a call that failed is meaningless: a tool outcome with `ok: false` stops the bench. */
function mustSucceed(result: unknown): void {
  const outcome = result as { ok?: unknown; error?: { code: string; message: string } } | null;
  if (outcome && typeof outcome === 'object' && outcome.ok === false)
    throw new Error(`bench call failed: ${outcome.error?.code}: ${outcome.error?.message}`);
}

/**
 * Median wall time of `runs` calls of `fn` (after one warm-up), with an untimed
 * `setup` before each. Every call must succeed.
 */
export async function median(runs: number, fn: () => unknown, setup?: () => unknown): Promise<number> {
  await setup?.();
  mustSucceed(await fn());
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await setup?.();
    const start = performance.now();
    const result = await fn();
    times.push(performance.now() - start);
    mustSucceed(result);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export interface Row {
  name: string;
  ms: number;
  baseline: string;
  baselineMs: number;
  /** Median of interleaved pair ratios (when measured so); else ms / baselineMs. */
  ratio?: number;
  target?: string;
}

export function formatTable(rows: Row[]): string {
  const lines = [
    '| measurement | median | baseline (same run) | ratio (median of pairs) | target |',
    '|---|---:|---|---:|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.ms.toFixed(2)} ms | ${r.baseline}: ${r.baselineMs.toFixed(2)} ms | ${(r.ratio ?? r.ms / r.baselineMs).toFixed(2)}× | ${r.target ?? ''} |`,
    );
  }
  return lines.join('\n');
}
