import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyFileEdits } from '@modelcontextprotocol/server-filesystem/dist/lib.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { median, type Row } from './measure.js';

/** A source-like file with distinctive lines, so every edit has a unique target. */
export function sourceFile(lines: number): string {
  return `${Array.from({ length: lines }, (_, i) => (i % 10 === 9 ? '}' : `  const value${i} = compute(${i}, "item-${i}");`)).join('\n')}\n`;
}

/** The floor: what any correct edit must do at least — read, hash, replace, write atomically. */
async function floorEdit(file: string, oldText: string, newText: string): Promise<void> {
  const text = await fs.promises.readFile(file, 'utf8');
  createHash('sha256').update(text).digest('hex');
  const next = text.replace(oldText, () => newText);
  // Same durability contract as ours: data synced before the rename, the rename synced after.
  const temp = `${file}.floor.tmp`;
  const handle = await fs.promises.open(temp, 'w');
  await handle.writeFile(next);
  await handle.sync();
  await handle.close();
  await fs.promises.rename(temp, file);
  const dir = await fs.promises.open(path.dirname(file), 'r');
  await dir.sync();
  await dir.close();
}

export async function benchEditTools(sizes: number[], runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of sizes) {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-edit-')));
    const file = path.join(dir, 'big.ts');
    const original = sourceFile(size);
    const target = Math.floor(size / 2) + 1;
    const oldLine = `  const value${target} = compute(${target}, "item-${target}");`;
    const newLine = `  const value${target} = compute(${target} * 2, "item-${target}");`;
    const reset = () => fs.writeFileSync(file, original);
    const newToolset = () =>
      new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }), {
        limits: { readMaxLines: 10_000_000, readMaxChars: 1_000_000_000 },
      });
    const toolset = newToolset();
    const floor = await median(runs, () => floorEdit(file, oldLine, newLine), reset);
    const label = `${size.toLocaleString('en')} lines`;
    const editFile = await median(
      runs,
      () => toolset.callTool('edit_file', { path: '/big.ts', old_string: oldLine, new_string: newLine }),
      reset,
    );
    const sha = createHash('sha256').update(original).digest('hex');
    const diff = `@@ -${target + 1},1 +${target + 1},1 @@\n-${oldLine}\n+${newLine}\n`;
    const patch = await median(
      runs,
      () => toolset.callTool('patch_file', { path: '/big.ts', unified_diff: diff, base_sha256: sha }),
      reset,
    );
    // edit_lines after a one-line hashed read. The toolset keeps line hashes by content
    // SHA-256, so repeated runs on the reset file hit them ("cached"); "first edit" uses a
    // fresh toolset each run, so every line of the file is hashed in the timed call.
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
    const lines = await median(runs, editLines, readAnchor(false));
    const firstLines = await median(runs, editLines, readAnchor(true));
    const mcp = await median(
      runs,
      () => applyFileEdits(file, [{ oldText: oldLine, newText: newLine }]),
      reset,
    );
    rows.push(
      {
        name: `edit_file, ${label}`,
        ms: editFile,
        baseline: 'floor',
        baselineMs: floor,
        target: '≤ 1.5× floor',
      },
      {
        name: `patch_file, ${label}`,
        ms: patch,
        baseline: 'floor',
        baselineMs: floor,
        target: '≤ 1.5× floor',
      },
      {
        name: `edit_lines, ${label}`,
        ms: lines,
        baseline: 'floor',
        baselineMs: floor,
        target: '≤ 1.5× floor',
      },
      {
        name: `edit_lines first edit (no cached line hashes), ${label}`,
        ms: firstLines,
        baseline: 'floor',
        baselineMs: floor,
      },
      {
        name: `edit_file vs MCP applyFileEdits, ${label}`,
        ms: editFile,
        baseline: 'MCP server-filesystem',
        baselineMs: mcp,
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
