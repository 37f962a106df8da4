import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyFileEdits } from '@modelcontextprotocol/server-filesystem/dist/lib.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import type { Row } from './measure.js';
import { floorEdit, nonced, paired } from './pairs.js';

/** A source-like file with distinctive lines, so every edit has a unique target. */
export function sourceFile(lines: number): string {
  return `${Array.from({ length: lines }, (_, i) => (i % 10 === 9 ? '}' : `  const value${i} = compute(${i}, "item-${i}");`)).join('\n')}\n`;
}

/**
 * Ordinary one-line edits through each tool, as interleaved pairs against the
 * floor (read, SHA-256, replace, temp write, rename): once without fsync, once
 * with the tools' durability (data and directory synced).
 */
export async function benchEditTools(sizes: number[], pairs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of sizes) {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-edit-')));
    const file = path.join(dir, 'big.ts');
    const original = sourceFile(size);
    const target = Math.floor(size / 2) + 1;
    const oldLine = `  const value${target} = compute(${target}, "item-${target}");`;
    const newLine = `  const value${target} = compute(${target} * 2, "item-${target}");`;
    let run = 0;
    let sha = '';
    const reset = () => {
      const bytes = nonced(original, run++);
      fs.writeFileSync(file, bytes);
      sha = createHash('sha256').update(bytes).digest('hex');
    };
    const newToolset = () =>
      new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }), {
        // Shipped read limits (only one line is read): a raised readMaxChars would put the
        // whole file in patch_file's result, a cost no default setup pays.
        limits: { maxFileBytes: 1 << 30 },
      });
    const toolset = newToolset();
    const label = `${size.toLocaleString('en')} lines`;
    const floor = () => floorEdit(file, oldLine, newLine, false);
    const floorSync = () => floorEdit(file, oldLine, newLine, true);
    const editFile = () =>
      toolset.callTool('edit_file', { path: '/big.ts', old_string: oldLine, new_string: newLine });
    const diff = `@@ -${target + 1},1 +${target + 1},1 @@\n-${oldLine}\n+${newLine}\n`;
    const patch = () =>
      toolset.callTool('patch_file', { path: '/big.ts', unified_diff: diff, base_sha256: sha });
    // edit_lines after a one-line hashed read (untimed). "first edit" uses a fresh toolset,
    // so the timed call hashes every line of the file itself.
    let anchor = '';
    let current = toolset;
    const editLines = () =>
      current.callTool('edit_lines', {
        path: '/big.ts',
        operations: [{ op: 'replace_line', hash: anchor, content: newLine }],
      });
    const readAnchor = (fresh: boolean) => async () => {
      reset();
      if (fresh) current = newToolset();
      const read = await current.callTool('read_file', {
        path: '/big.ts',
        offset: target + 1,
        limit: 1,
        hashes: true,
      });
      anchor = String((read as { data: { content: string } }).data.content).split('|')[0]!;
    };
    const row = (
      name: string,
      r: { ratio: number; toolMs: number; baselineMs: number },
      baseline: string,
      t?: string,
    ) =>
      rows.push({
        name: `${name}, ${label}`,
        ms: r.toolMs,
        baseline,
        baselineMs: r.baselineMs,
        ratio: r.ratio,
        target: t,
      });
    row('fsync floor vs no-fsync floor', await paired(pairs, floor, floorSync, reset), 'no-fsync floor');
    row('edit_file', await paired(pairs, floor, editFile, reset), 'no-fsync floor', '≤ 2×');
    row('edit_file', await paired(pairs, floorSync, editFile, reset), 'fsync floor', '≤ 1.5×');
    row('patch_file', await paired(pairs, floor, patch, reset), 'no-fsync floor', '≤ 2×');
    row('edit_lines', await paired(pairs, floor, editLines, readAnchor(false)), 'no-fsync floor', '≤ 2×');
    row(
      'edit_lines first edit (no cached line hashes)',
      await paired(pairs, floor, editLines, readAnchor(true)),
      'no-fsync floor',
    );
    row(
      'edit_file vs MCP applyFileEdits',
      await paired(
        pairs,
        () => applyFileEdits(file, [{ oldText: oldLine, newText: newLine }]),
        editFile,
        reset,
      ),
      'MCP server-filesystem',
    );
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
