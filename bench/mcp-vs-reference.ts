import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sourceFile } from './edit-tools.js';
import type { Row } from './measure.js';

const BIN = path.resolve(import.meta.dirname, '../src/mcp/cli/bin.ts');
const REFERENCE = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: path.resolve(import.meta.dirname, '..'),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

/** One tool call; a failed call stops the bench (timing an error means nothing). */
async function must(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`bench call ${name} failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  return r;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Interleaved pairs: each round times the reference call and ours back to back
 * (the order alternating), and the ratio of the pair is kept; the result is the
 * median of those ratios, so load from other processes mostly cancels within a
 * pair. Two untimed warm-up pairs first.
 */
async function pairs(runs: number, reference: () => Promise<unknown>, ours: () => Promise<unknown>) {
  const ref: number[] = [];
  const our: number[] = [];
  const ratios: number[] = [];
  for (let round = -2; round < runs; round++) {
    const order = round % 2 === 0 ? [reference, ours] : [ours, reference];
    const t: number[] = [];
    for (const fn of order) {
      const start = performance.now();
      await fn();
      t.push(performance.now() - start);
    }
    if (round < 0) continue;
    const [r, o] = round % 2 === 0 ? [t[0]!, t[1]!] : [t[1]!, t[0]!];
    ref.push(r);
    our.push(o);
    ratios.push(o / r);
  }
  return { ref: median(ref), ours: median(our), ratio: median(ratios) };
}

/** A flat directory of `n` small files. */
function flatDirectory(dir: string, n: number): void {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++)
    fs.writeFileSync(path.join(dir, `file-${String(i).padStart(6, '0')}.txt`), 'x\n');
}

/**
 * Round-trip cost against the reference @modelcontextprotocol/server-filesystem,
 * both as child processes over stdio with the same files: edit_file (one
 * replacement, written to disk; ours pre-approved by the mount, writing durably)
 * and a flat directory listing.
 */
export async function benchMcpVsReference(
  options: { editSizes: readonly number[]; listFiles: number },
  runs: number,
): Promise<Row[]> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mcp-ref-')));
  const config = path.join(dir, 'config.json');
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(
    config,
    JSON.stringify({ mounts: [{ hostPath: root, mountPoint: '/', mode: 'rw', writeApproval: false }] }),
  );
  const ours = await connect(['--import', 'tsx', BIN, 'mcp', '--config', config]);
  const reference = await connect([REFERENCE, root]);
  const rows: Row[] = [];
  try {
    for (const lines of options.editSizes) {
      // The targets are set for these sizes; other sizes (the --quick run) are reported without one.
      const target = lines === 10_000 ? 1 : lines === 200_000 ? 0.5 : undefined;
      for (const name of ['ref.ts', 'ours.ts']) fs.writeFileSync(path.join(root, name), sourceFile(lines));
      const middle = Math.floor(lines / 2) - (Math.floor(lines / 2) % 10 === 9 ? 1 : 0);
      const original = `  const value${middle} = compute(${middle}, "item-${middle}");`;
      const changed = `  const value${middle} = compute(${middle}, "item-${middle}-changed");`;
      // Each server edits its own file back and forth, so every call is a real change.
      const toggle = (edit: (from: string, to: string) => Promise<unknown>) => {
        let flipped = false;
        return () => {
          const [from, to] = flipped ? [changed, original] : [original, changed];
          flipped = !flipped;
          return edit(from, to);
        };
      };
      const m = await pairs(
        runs,
        toggle((from, to) =>
          must(reference, 'edit_file', {
            path: path.join(root, 'ref.ts'),
            edits: [{ oldText: from, newText: to }],
          }),
        ),
        toggle((from, to) => must(ours, 'edit_file', { path: '/ours.ts', old_string: from, new_string: to })),
      );
      rows.push(
        row(`MCP vs reference: edit_file round trip, ${lines.toLocaleString('en')} lines`, m, target),
      );
    }
    const flat = path.join(root, 'flat');
    flatDirectory(flat, options.listFiles);
    const m = await pairs(
      runs,
      () => must(reference, 'list_directory', { path: flat }),
      () => must(ours, 'list_files', { path: '/flat', pattern: '*' }),
    );
    rows.push(
      row(
        `MCP vs reference: flat listing of ${options.listFiles.toLocaleString('en')} files`,
        m,
        options.listFiles === 10_000 ? 1 : undefined,
      ),
    );
  } finally {
    await Promise.all([ours.close(), reference.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

function row(name: string, m: { ref: number; ours: number; ratio: number }, target?: number): Row {
  const ratio = `median of pair ratios ${m.ratio.toFixed(2)}×`;
  return {
    name,
    ms: m.ours,
    baseline: 'reference server-filesystem, same call',
    baselineMs: m.ref,
    target:
      target === undefined ? ratio : `≤ ${target}× — ${ratio} ${m.ratio <= target ? '(met)' : '(NOT met)'}`,
  };
}
