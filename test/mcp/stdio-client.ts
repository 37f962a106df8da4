import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';

/** The CLI entry run through tsx (the published bin runs the same file compiled into dist). */
export const BIN = path.resolve(import.meta.dirname, '../../src/mcp/cli/bin.ts');
export const REPO = path.resolve(import.meta.dirname, '../..');

export interface StdioSession {
  client: Client;
  /** Messages of the elicitation requests the server sent, in order. */
  asked: string[];
  stderr: () => string;
  close: () => Promise<void>;
}

/**
 * Starts `sandbox-approval mcp ARGS` as a child process and connects the SDK's
 * Client over stdio. With `answer`, the client declares elicitation and answers
 * every request with it.
 */
export async function startServer(
  args: string[],
  answer?: (message: string) => ElicitResult | Promise<ElicitResult>,
): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', BIN, 'mcp', ...args],
    cwd: REPO,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: 'e2e', version: '1' },
    answer ? { capabilities: { elicitation: {} } } : {},
  );
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params.message);
      return answer(req.params.message);
    });
  }
  await client.connect(transport);
  return { client, asked, stderr: () => stderr, close: () => client.close() };
}

export async function call(session: StdioSession, name: string, args: Record<string, unknown>) {
  return (await session.client.callTool({ name, arguments: args })) as CallToolResult;
}

export const codeOf = (r: CallToolResult) =>
  (r.structuredContent as { error?: { code: string } } | undefined)?.error?.code;
export const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;
export const approveAll = (): ElicitResult => ({ action: 'accept', content: { decision: 'approve' } });
