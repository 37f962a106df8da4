import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MESSAGE_TOO_LARGE,
  messageLimitFor,
  SizedStdioServerTransport,
} from '../../src/mcp/sized-stdio-transport.js';

const LIMIT = 300;

/** Feeds `chunks` to a transport with a LIMIT-byte cap; returns what it delivered, answered and logged. */
async function run(chunks: Buffer[]) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const logged: string[] = [];
  const transport = new SizedStdioServerTransport(
    { maxMessageBytes: LIMIT, log: (l) => logged.push(l) },
    stdin,
    stdout,
  );
  const delivered: JSONRPCMessage[] = [];
  transport.onmessage = (m) => delivered.push(m);
  await transport.start();
  for (const c of chunks) stdin.write(c);
  await new Promise((r) => setImmediate(r));
  const answers = (stdout.read()?.toString('utf8') ?? '')
    .split('\n')
    .filter((l: string) => l !== '')
    .map((l: string) => JSON.parse(l));
  await transport.close();
  return { delivered, answers, logged };
}

const request = fc.record({
  id: fc.oneof(
    fc.integer({ min: 0, max: 1e6 }),
    fc.string({ maxLength: 10 }).map((s) => `r-${s.replace(/["\\]/g, '')}`),
  ),
  text: fc.string({ maxLength: 400 }),
  idFirst: fc.boolean(),
});

describe('SizedStdioServerTransport', () => {
  it('however the stream is cut into chunks: messages within the limit arrive in order; each larger one is answered with its id', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(request, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (reqs, cuts) => {
          const lines = reqs.map((r) => {
            const params = { name: 'write_file', arguments: { content: r.text } };
            const message = r.idFirst
              ? { jsonrpc: '2.0', id: r.id, method: 'tools/call', params }
              : { method: 'tools/call', params, jsonrpc: '2.0', id: r.id };
            return JSON.stringify(message);
          });
          const stream = Buffer.from(lines.map((l) => `${l}\n`).join(''), 'utf8');
          const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let from = 0;
          for (const p of [...points, stream.length]) {
            chunks.push(stream.subarray(from, p));
            from = p;
          }
          const { delivered, answers, logged } = await run(chunks);
          const fits = lines.map((l) => Buffer.byteLength(l) <= LIMIT);
          expect(delivered.map((m) => (m as { id: unknown }).id)).toEqual(
            reqs.filter((_, i) => fits[i]).map((r) => r.id),
          );
          const over = reqs.filter((_, i) => !fits[i]);
          expect(answers.map((a: { id: unknown }) => a.id)).toEqual(over.map((r) => r.id));
          for (const a of answers) expect(a.error.code).toBe(MESSAGE_TOO_LARGE);
          expect(logged).toHaveLength(over.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a file of the limit fits whatever it contains (worst-case escaping)', () => {
    const maxFileBytes = 1000;
    const content = '\u0001'.repeat(maxFileBytes);
    const message = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: '/a', content } },
    });
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(messageLimitFor(maxFileBytes));
  });
});
