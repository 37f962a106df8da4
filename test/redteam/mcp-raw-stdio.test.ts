import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { type Raw, startRaw } from './mcp-raw.js';

const MAX_FILE = 1000;
const LIMIT = MAX_FILE * 6 + 1024 * 1024;

function setup(files: Record<string, string> = {}) {
  const dir = tempDir({ 'src/a.txt': 'a\n', ...files });
  const cfg = path.join(dir, 'cfg.json');
  fs.writeFileSync(
    cfg,
    JSON.stringify({
      mounts: [{ hostPath: './src', mountPoint: '/src', mode: 'rw', maxFileBytes: MAX_FILE }],
    }),
  );
  return { dir, cfg };
}

/** A tools/call line of exactly `bytes` bytes (without the newline). */
function callOfSize(id: number, bytes: number): string {
  const make = (pad: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: '/src/big.txt', content: 'x'.repeat(pad) } },
    });
  const base = make(0).length;
  const line = make(bytes - base);
  expect(Buffer.byteLength(line)).toBe(bytes);
  return line;
}

let raw: Raw | undefined;
afterEach(async () => {
  await raw?.close();
  raw = undefined;
});

const ping = async (r: Raw) => {
  const res = await r.request('ping', {});
  expect(res.result).toEqual({});
};

describe('red team: the sized stdio transport, driven raw', () => {
  it('a message of exactly the limit is read (reaches the tool); limit+1 gets -32600 + stderr, and the server keeps serving', async () => {
    const { cfg } = setup();
    raw = await startRaw(['--config', cfg]);
    raw.write(`${callOfSize(1, LIMIT)}\n`);
    const ok = await raw.waitFor((m) => m.id === 1);
    expect(ok.error, JSON.stringify(ok).slice(0, 500)).toBeUndefined();
    expect(JSON.stringify(ok.result)).toMatch(/file_too_large/);
    raw.write(`${callOfSize(2, LIMIT + 1)}\n`);
    const bad = await raw.waitFor((m) => m.id === 2);
    expect(bad.error?.code).toBe(-32600);
    await ping(raw);
    expect(raw.stderr()).toMatch(/refused a \d+-byte message/);
  });

  it('a message of exactly the limit sent with a CRLF line ending is read: the \\r is framing, not content', async () => {
    const { cfg } = setup();
    raw = await startRaw(['--config', cfg]);
    raw.write(`${callOfSize(3, LIMIT)}\r\n`);
    const ok = await raw.waitFor((m) => m.id === 3);
    expect(ok.error?.code, 'a message of exactly the limit, sent with CRLF, is refused').not.toBe(-32600);
  });

  it('a message split into 1-byte chunks and many messages in one chunk are all answered', async () => {
    const { cfg } = setup();
    raw = await startRaw(['--config', cfg]);
    const line = `${JSON.stringify({ jsonrpc: '2.0', id: 'split', method: 'ping' })}\n`;
    for (const ch of Buffer.from(line)) raw.write(Buffer.from([ch]));
    await raw.waitFor((m) => m.id === 'split');
    const many = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 5000 + i,
        method: 'tools/call',
        params: { name: 'read_file', arguments: { path: '/src/a.txt' } },
      }),
    ).join('\n');
    raw.write(`${many}\n`);
    await raw.waitFor((m) => m.id === 5199, 60_000);
    expect(raw.lines.filter((m: any) => m.id >= 5000 && m.id < 5200).length).toBe(200);
  });

  it('a huge line with no newline, then a newline and a ping: refused and serving', async () => {
    const { cfg } = setup();
    raw = await startRaw(['--config', cfg]);
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    for (let i = 0; i < 8; i++) raw.write(chunk);
    raw.write('\n');
    await ping(raw);
    expect(raw.stderr()).toMatch(/refused a \d+-byte message .*no id found/);
  });

  it('invalid JSON and invalid UTF-8: the server keeps serving and says something (no silent drop)', async () => {
    const { cfg, dir } = setup();
    raw = await startRaw(['--config', cfg]);
    raw.write('{"jsonrpc":"2.0","id":9,"method":"tools/call",\n');
    const afterBadJson = raw.stderr();
    raw.write(
      Buffer.concat([
        Buffer.from(
          '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"/src/u.txt","content":"a',
        ),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('b","dryRun":true}}}\n'),
      ]),
    );
    const r10 = await raw.waitFor((m) => m.id === 10);
    expect(fs.existsSync(path.join(dir, 'src/u.txt'))).toBe(false);
    expect(r10).toBeDefined();
    await ping(raw);
    // A malformed request with an id gets either a JSON-RPC error reply or at least a stderr line.
    const replied = raw.lines.some((m: any) => m.error && (m.id === 9 || m.id === null));
    // JSON-RPC: a line that is not JSON gets "Parse error" with id null.
    expect(raw.lines.some((m: any) => m.error?.code === -32700 && m.id === null)).toBe(true);
    expect(raw.stderr()).toMatch(/Parse error/);
    expect(
      replied || raw.stderr().length > afterBadJson.length || /JSON|parse/i.test(raw.stderr()),
      raw.stderr(),
    ).toBe(true);
  });
});

describe('red team: elicitation answered by a raw client', () => {
  const elicitCap = { elicitation: { form: {} } };

  async function pendingElicitation(r: Raw, id: number | string, p: string) {
    r.send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: p, content: 'CHANGED\n' } },
    });
    return r.waitFor((m) => m.method === 'elicitation/create' && m.params.message.includes(p));
  }

  const answers: [string, unknown][] = [
    ['decision APPROVE (wrong case)', { action: 'accept', content: { decision: 'APPROVE' } }],
    ['decision as array', { action: 'accept', content: { decision: ['approve'] } }],
    ['no content', { action: 'accept' }],
    ['decline with approve', { action: 'decline', content: { decision: 'approve' } }],
    ['cancel with approve', { action: 'cancel', content: { decision: 'approve' } }],
    ['action Accept', { action: 'Accept', content: { decision: 'approve' } }],
    ['note as number', { action: 'accept', content: { decision: 'approve', note: 5 } }],
    ['decision with trailing space', { action: 'accept', content: { decision: 'approve ' } }],
    ['decision deny + approved:true', { action: 'accept', content: { decision: 'deny', approved: true } }],
    ['content as string', { action: 'accept', content: 'approve' }],
    ['__proto__ decision', { action: 'accept', content: JSON.parse('{"__proto__":{"decision":"approve"}}') }],
  ];
  it.each(answers)('answer %s: the call does not run', async (_n, result) => {
    const { dir } = setup({ 'src/t.txt': 'orig\n' });
    raw = await startRaw(['--mount', `${dir}/src:/src:rw`], elicitCap);
    const el = await pendingElicitation(raw, 1, '/src/t.txt');
    raw.send({ jsonrpc: '2.0', id: el.id, result });
    const res = await raw.waitFor((m) => m.id === 1);
    expect(res.result?.isError, JSON.stringify(res)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'src/t.txt'), 'utf8')).toBe('orig\n');
  });

  it('an elicitation answered with a JSON-RPC error, then again with approve: denied, not run', async () => {
    const { dir } = setup({ 'src/t.txt': 'orig\n' });
    raw = await startRaw(['--mount', `${dir}/src:/src:rw`], elicitCap);
    const el = await pendingElicitation(raw, 1, '/src/t.txt');
    raw.send({ jsonrpc: '2.0', id: el.id, error: { code: -1, message: 'nope' } });
    raw.send({ jsonrpc: '2.0', id: el.id, result: { action: 'accept', content: { decision: 'approve' } } });
    const res = await raw.waitFor((m) => m.id === 1);
    expect(res.result?.isError).toBe(true);
    await ping(raw);
    expect(fs.readFileSync(path.join(dir, 'src/t.txt'), 'utf8')).toBe('orig\n');
  });

  it('control: cancelling a call during its elicitation, then approving, runs nothing', async () => {
    const { dir } = setup({ 'src/t.txt': 'orig\n' });
    raw = await startRaw(['--mount', `${dir}/src:/src:rw`], elicitCap);
    const el = await pendingElicitation(raw, 1, '/src/t.txt');
    raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await new Promise((r) => setTimeout(r, 300));
    raw.send({ jsonrpc: '2.0', id: el.id, result: { action: 'accept', content: { decision: 'approve' } } });
    await new Promise((r) => setTimeout(r, 800));
    await ping(raw);
    expect(fs.readFileSync(path.join(dir, 'src/t.txt'), 'utf8')).toBe('orig\n');
  });

  const mk = (id: number | string, p: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: p, content: 'CHANGED\n' } },
    });

  it('ids 1 and "1" in flight together: cancelling a call during its elicitation, then approving, runs nothing', async () => {
    const { dir } = setup({ 'src/t.txt': 'orig\n', 'src/u.txt': 'orig\n' });
    raw = await startRaw(['--mount', `${dir}/src:/src:rw`], elicitCap);
    raw.write(`${mk(1, '/src/t.txt')}\n${mk('1', '/src/u.txt')}\n`);
    // Call 1's elicitation captured the signal stored under "mcp-1" when it started: call "1"'s (set later) or,
    // when "1" was asked first and finished, none at all. Either way cancelling call 1 cannot reach it.
    let elT = await raw.waitFor((m) => m.method === 'elicitation/create');
    if (!elT.params.message.includes('/src/t.txt')) {
      raw.send({ jsonrpc: '2.0', id: elT.id, result: { action: 'decline' } });
      const firstId = elT.id;
      elT = await raw.waitFor((m) => m.method === 'elicitation/create' && m.id !== firstId);
    }
    raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await new Promise((r) => setTimeout(r, 300));
    raw.send({ jsonrpc: '2.0', id: elT.id, result: { action: 'accept', content: { decision: 'approve' } } });
    await new Promise((r) => setTimeout(r, 800));
    await ping(raw);
    expect(fs.readFileSync(path.join(dir, 'src/t.txt'), 'utf8'), 'the cancelled call 1 ran').toBe('orig\n');
  });

  it('ids 1 and "1": the note given for one call is not reported on the other', async () => {
    const { dir } = setup({ 'src/t.txt': 'orig\n', 'src/u.txt': 'orig\n' });
    raw = await startRaw(['--mount', `${dir}/src:/src:rw`], elicitCap);
    raw.write(`${mk(1, '/src/t.txt')}\n${mk('1', '/src/u.txt')}\n`);
    const e1 = await raw.waitFor((m) => m.method === 'elicitation/create');
    raw.send({
      jsonrpc: '2.0',
      id: e1.id,
      result: { action: 'accept', content: { decision: 'approve', note: 'NOTE-1' } },
    });
    const e2 = await raw.waitFor((m) => m.method === 'elicitation/create' && m.id !== e1.id);
    raw.send({ jsonrpc: '2.0', id: e2.id, result: { action: 'accept', content: { decision: 'approve' } } });
    const rA = await raw.waitFor((m) => m.id === 1 && m.result);
    const rB = await raw.waitFor((m) => m.id === '1' && m.result);
    const withNote = [rA, rB].filter((r) => JSON.stringify(r).includes('NOTE-1'));
    expect(withNote.length).toBe(1);
  });

  it('a call cancelled while queued behind another approval never runs, even when everything is approved', async () => {
    const { dir } = setup({ 'src/t.txt': 'orig\n', 'src/u.txt': 'orig\n' });
    raw = await startRaw(['--mount', `${dir}/src:/src:rw`], elicitCap);
    raw.write(`${mk(21, '/src/t.txt')}\n${mk(22, '/src/u.txt')}\n`);
    const e1 = await raw.waitFor((m) => m.method === 'elicitation/create');
    const queuedId = e1.params.message.includes('/src/t.txt') ? 22 : 21;
    const queuedFile = queuedId === 22 ? 'src/u.txt' : 'src/t.txt';
    raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: queuedId } });
    await new Promise((r) => setTimeout(r, 200));
    raw.send({ jsonrpc: '2.0', id: e1.id, result: { action: 'accept', content: { decision: 'approve' } } });
    const e2 = await raw
      .waitFor((m) => m.method === 'elicitation/create' && m.id !== e1.id, 3000)
      .catch(() => undefined);
    if (e2)
      raw.send({ jsonrpc: '2.0', id: e2.id, result: { action: 'accept', content: { decision: 'approve' } } });
    await new Promise((r) => setTimeout(r, 800));
    await ping(raw);
    expect(fs.readFileSync(path.join(dir, queuedFile), 'utf8')).toBe('orig\n');
  });

  it('two calls with the same progress token, both waiting for approval: both answered, server alive', async () => {
    const { dir } = setup({ 'src/t.txt': 'orig\n', 'src/u.txt': 'orig\n' });
    raw = await startRaw(['--mount', `${dir}/src:/src:rw`], elicitCap);
    for (const [id, p] of [
      [11, '/src/t.txt'],
      [12, '/src/u.txt'],
    ] as const)
      raw.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'write_file',
          arguments: { path: p, content: 'C\n' },
          _meta: { progressToken: 'same' },
        },
      });
    const answer = (m: any) =>
      m.params.message.includes('/src/t.txt')
        ? { action: 'decline' }
        : { action: 'accept', content: { decision: 'approve' } };
    const e1 = await raw.waitFor((m) => m.method === 'elicitation/create');
    raw.send({ jsonrpc: '2.0', id: e1.id, result: answer(e1) });
    const e2 = await raw.waitFor((m) => m.method === 'elicitation/create' && m.id !== e1.id);
    raw.send({ jsonrpc: '2.0', id: e2.id, result: answer(e2) });
    const r1 = await raw.waitFor((m) => m.id === 11);
    const r2 = await raw.waitFor((m) => m.id === 12);
    expect(r1.result.isError).toBe(true);
    expect(r2.result.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(dir, 'src/t.txt'), 'utf8')).toBe('orig\n');
    expect(fs.readFileSync(path.join(dir, 'src/u.txt'), 'utf8')).toBe('C\n');
  });
});
