import path from 'node:path';
import { buildCorpus } from './corpus.js';
import { replay, type Verdict } from './replay.js';
import { SCENARIOS, type ToolUnderTest } from './scenarios.js';

/**
 * Edit-fidelity bench: replays a corpus of gold edits through edit_file,
 * patch_file and edit_lines under simulated model mistakes and counts correct /
 * rejected / silently wrong outcomes, judged byte for byte against the intended
 * file (a slip let through into a line the edit does not change is wrong).
 * Silently wrong must be 0 everywhere.
 */
const TOOLS: ToolUnderTest[] = ['edit_file', 'patch_file', 'edit_lines'];

export async function runEditFidelity(options: { size?: number; root?: string } = {}) {
  const corpus = buildCorpus(options.root ?? path.resolve(import.meta.dirname, '../..'), options.size ?? 50);
  const rows: Array<{ scenario: string; cells: Record<ToolUnderTest, Record<Verdict, number>> }> = [];
  const examples: string[] = [];
  for (const scenario of SCENARIOS) {
    const cells = {} as Record<ToolUnderTest, Record<Verdict, number>>;
    for (const tool of TOOLS) {
      const counts: Record<Verdict, number> = { correct: 0, rejected: 0, wrong: 0, 'n/a': 0 };
      for (const edit of corpus) {
        const verdict = await replay(edit, scenario, tool);
        counts[verdict]++;
        if (verdict === 'wrong' && examples.length < 10)
          examples.push(`${tool} / ${scenario.name} / ${edit.id}`);
      }
      cells[tool] = counts;
    }
    rows.push({ scenario: scenario.name, cells });
  }
  return { corpusSize: corpus.length, rows, examples };
}

export function formatFidelityTable(result: Awaited<ReturnType<typeof runEditFidelity>>): string {
  const cell = (c: Record<Verdict, number>) =>
    c['n/a'] > 0 && c.correct + c.rejected + c.wrong === 0
      ? '—'
      : `${c.correct} / ${c.rejected} / ${c.wrong}`;
  const header = `| mistake (${result.corpusSize} gold edits) | ${TOOLS.map((t) => `${t} ok/rej/WRONG`).join(' | ')} |`;
  const lines = [header, `|${'---|'.repeat(TOOLS.length + 1)}`];
  for (const row of result.rows)
    lines.push(`| ${row.scenario} | ${TOOLS.map((t) => cell(row.cells[t])).join(' | ')} |`);
  const wrong = result.rows.reduce((n, r) => n + TOOLS.reduce((m, t) => m + r.cells[t].wrong, 0), 0);
  lines.push('', `silently wrong in total: ${wrong}`);
  if (result.examples.length) lines.push(`examples: ${result.examples.join('; ')}`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const result = await runEditFidelity({ size: quick ? 10 : 50 });
  console.log(formatFidelityTable(result));
}
