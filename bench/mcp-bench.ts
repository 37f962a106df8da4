import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { sourceFile } from './edit-tools.js';
import type { Row } from './measure.js';

const BIN = path.resolve(import.meta.dirname, '../src/mcp/cli/bin.ts');
const REFERENCE = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

async function connect(command: string[], elicitation = false): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: command,
    cwd: path.resolve(import.meta.dirname, '..'),
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'bench', version: '1' },
    elicitation ? { capabilities: { elicitation: {} } } : {},
  );
  if (elicitation)
    client.setRequestHandler(ElicitRequestSchema, () => ({
      action: 'accept',
      content: { decision: 'approve' },
    }));
  await client.connect(transport);
  return client;
}

/**
 * Median time of each call, measured interleaved (one of each per round, the
 * order rotating), so load from other processes falls on all of them alike.
 * Two untimed warm-up rounds first (JIT, caches).
 */
async function interleaved(
  runs: number,
  calls: Record<string, () => Promise<unknown>>,
): Promise<Record<string, number>> {
  const names = Object.keys(calls);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = -2; round < runs; round++) {
    const offset = ((round % names.length) + names.length) % names.length;
    for (const name of [...names.slice(offset), ...names.slice(0, offset)]) {
      const start = performance.now();
      await calls[name]!();
      if (round >= 0) times[name]!.push(performance.now() - start);
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const sorted = times[n]!.sort((a, b) => a - b);
      return [n, sorted[Math.floor(sorted.length / 2)]!];
    }),
  );
}

/** One tool call; a failed call stops the bench (timing an error means nothing). */
async function must(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`bench call ${name} failed: ${JSON.stringify(r.content)}`);
  return r;
}

/**
 * Our MCP server vs the reference @modelcontextprotocol/server-filesystem, both
 * child processes over stdio, same file, same run: a whole-file read, and an
 * edit round trip (one replacement, written to disk, result back to the client).
 * Ours runs pre-approved (mount writeApproval: false) for the like-for-like row,
 * and once more with the approval asked and granted by elicitation.
 */
export async function benchMcpRoundTrip(sizes: readonly number[], runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const lines of sizes) {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mcp-')));
    const file = path.join(dir, 'big.ts');
    fs.writeFileSync(file, sourceFile(lines));
    const config = (writeApproval: boolean) => {
      const p = path.join(os.tmpdir(), `bench-mcp-${process.pid}-${writeApproval}.json`);
      fs.writeFileSync(
        p,
        JSON.stringify({
          mounts: [{ hostPath: dir, mountPoint: '/', mode: 'rw', writeApproval, readApproval: false }],
        }),
      );
      return p;
    };
    const ours = await connect(['--import', 'tsx', BIN, 'mcp', '--config', config(false)]);
    const oursAsked = await connect(['--import', 'tsx', BIN, 'mcp', '--config', config(true)], true);
    const reference = await connect([REFERENCE, dir]);
    const middle = Math.floor(lines / 2) - (Math.floor(lines / 2) % 10 === 9 ? 1 : 0);
    const original = `  const value${middle} = compute(${middle}, "item-${middle}");`;
    const changed = `  const value${middle} = compute(${middle}, "item-${middle}-changed");`;
    // One file per server, so each edit is a real change of a file only that server touches.
    for (const name of ['ref.ts', 'ours.ts', 'asked.ts'])
      fs.writeFileSync(path.join(dir, name), sourceFile(lines));
    const toggle = (edit: (from: string, to: string) => Promise<unknown>) => {
      let flipped = false;
      return async () => {
        const [from, to] = flipped ? [changed, original] : [original, changed];
        flipped = !flipped;
        return edit(from, to);
      };
    };
    const edits = await interleaved(runs, {
      reference: toggle((from, to) =>
        must(reference, 'edit_file', {
          path: path.join(dir, 'ref.ts'),
          edits: [{ oldText: from, newText: to }],
        }),
      ),
      ours: toggle((from, to) =>
        must(ours, 'edit_file', { path: '/ours.ts', old_string: from, new_string: to }),
      ),
      asked: toggle((from, to) =>
        must(oursAsked, 'edit_file', { path: '/asked.ts', old_string: from, new_string: to }),
      ),
    });
    const [refEdit, ourEdit, ourAskedEdit] = [edits.reference!, edits.ours!, edits.asked!];
    // Reads compare only when our read_file returns the whole file in one page (the reference never pages).
    const whole = !(await must(ours, 'read_file', { path: '/big.ts' })).structuredContent?.truncated;
    const reads = whole
      ? await interleaved(runs, {
          reference: () => must(reference, 'read_text_file', { path: file }),
          ours: () => must(ours, 'read_file', { path: '/big.ts' }),
        })
      : {};
    const [refRead, ourRead] = [reads.reference ?? 0, reads.ours ?? 0];
    await Promise.all([ours.close(), oursAsked.close(), reference.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
    const label = `${lines.toLocaleString('en')} lines`;
    // Ours writes durably (data and directory fsynced); the reference renames a temp file without fsync.
    const baseline = 'reference server-filesystem, same call (no fsync)';
    rows.push({
      name: `MCP stdio edit_file round trip, ${label}`,
      ms: ourEdit,
      baseline,
      baselineMs: refEdit,
    });
    rows.push({
      name: `MCP stdio edit_file round trip with approval by elicitation, ${label}`,
      ms: ourAskedEdit,
      baseline: 'reference server-filesystem edit_file (no approval, no fsync)',
      baselineMs: refEdit,
    });
    if (whole)
      rows.push({
        name: `MCP stdio read_file (whole file), ${label}`,
        ms: ourRead,
        baseline: 'reference server-filesystem read_text_file',
        baselineMs: refRead,
      });
  }
  return rows;
}
