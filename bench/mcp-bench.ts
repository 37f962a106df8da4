import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { sourceFile } from './edit-tools.js';
import { median, type Row } from './measure.js';

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
    // Each timed call flips the line, so every call is a real change.
    const toggle = (edit: (from: string, to: string) => Promise<unknown>) => {
      let flipped = false;
      return async () => {
        const [from, to] = flipped ? [changed, original] : [original, changed];
        flipped = !flipped;
        return edit(from, to);
      };
    };
    const refEdit = await median(
      runs,
      toggle((from, to) =>
        must(reference, 'edit_file', { path: file, edits: [{ oldText: from, newText: to }] }),
      ),
    );
    const ourEdit = await median(
      runs,
      toggle((from, to) => must(ours, 'edit_file', { path: '/big.ts', old_string: from, new_string: to })),
    );
    const ourAskedEdit = await median(
      runs,
      toggle((from, to) =>
        must(oursAsked, 'edit_file', { path: '/big.ts', old_string: from, new_string: to }),
      ),
    );
    // Reads compare only when our read_file returns the whole file in one page (the reference never pages).
    const whole = !(await must(ours, 'read_file', { path: '/big.ts' })).structuredContent?.truncated;
    const refRead = whole ? await median(runs, () => must(reference, 'read_text_file', { path: file })) : 0;
    const ourRead = whole ? await median(runs, () => must(ours, 'read_file', { path: '/big.ts' })) : 0;
    await Promise.all([ours.close(), oursAsked.close(), reference.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
    const label = `${lines.toLocaleString('en')} lines`;
    const baseline = 'reference server-filesystem, same call';
    rows.push({
      name: `MCP stdio edit_file round trip, ${label}`,
      ms: ourEdit,
      baseline,
      baselineMs: refEdit,
    });
    rows.push({
      name: `MCP stdio edit_file round trip with approval by elicitation, ${label}`,
      ms: ourAskedEdit,
      baseline: 'reference server-filesystem edit_file (no approval)',
      baselineMs: refEdit,
    });
    if (whole)
      rows.push({
        name: `MCP stdio read_file (whole file), ${label}`,
        ms: ourRead,
        baseline: `${baseline} (read_text_file)`,
        baselineMs: refRead,
      });
  }
  return rows;
}
