// rt36: the terminal renderer, the built-in pager (with search) and the MCP elicitation text on real payloads
// from the tools: a 200k-line overwrite diff, a replace_all over 200k lines and a one-word change inside a
// 20 MB line. Must not throw or hang; the shown rows must agree with the payload.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { payloadText } from '../../src/mcp/payload-text.js';
import { createStyle, renderPayload } from '../../src/terminal/index.js';
import { KeyReader } from '../../src/terminal/key-reader.js';
import { runPager } from '../../src/terminal/pager.js';
import { fakeTty } from '../terminal/fake-tty.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function payloadOf(content: string, tool: string, args: Record<string, unknown>) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt36-tb-')));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  const requests: any[] = [];
  const gated = new ApprovalToolset(
    new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: true })),
    {
      approve: (r: any) => {
        requests.push(r);
        return { approved: true };
      },
    },
  );
  const out = await gated.callTool(tool, { path: '/f.txt', ...args });
  expect(out.ok).toBe(true);
  return { request: requests[0], after: fs.readFileSync(path.join(dir, 'f.txt'), 'utf8') };
}

async function page(r: ReturnType<typeof renderPayload>, keys: string[]) {
  const tty = fakeTty({ columns: 100, rows: 30 });
  const reader = new KeyReader(tty.input, { clock: tty.clock, onArm: tty.onPrompt });
  reader.open();
  tty.type(...keys);
  await runPager({
    keys: reader,
    output: tty.output,
    count: r.body.count,
    line: r.body.line,
    search: r.body.text,
    where: r.body.where,
    title: r.title,
    footer: '[y] yes  [n] no',
    rows: 30,
    width: 100,
    style: createStyle(false),
  });
  reader.close();
  return tty.plain();
}

describe('rt36: terminal UI on huge payloads', () => {
  it('200k-line overwrite: title counts, last row numbered, pager G + search finds the last change', async () => {
    const N = 200_000;
    const before = Array.from({ length: N }, (_, i) => `row ${i}`).join('\n') + '\n';
    const content = Array.from({ length: N }, (_, i) => (i % 2 ? `row ${i}` : `ROW ${i}`)).join('\n') + '\n';
    const { request, after } = await payloadOf(before, 'write_file', { content });
    expect(after).toBe(content);
    const p = request.payload;
    expect(p.added).toBe(N / 2);
    expect(p.removed).toBe(N / 2);
    const r = renderPayload(p, createStyle(false), 100);
    expect(r.title).toContain(`+${N / 2}`);
    const last = r.body.line(r.body.count - 1);
    expect(last).toMatch(/199999/);
    const screen = await page(r, ['G', '/', 'R', 'O', 'W', ' ', '1', '9', '9', '9', '9', '8', '\r', 'q']);
    expect(screen).toMatch(/match 1 of 1/);
    const text = payloadText(request);
    expect(text.length).toBeLessThan(100_000);
  }, 60_000);

  it('replace_all over 200k lines: every drawn row agrees; pager and MCP text stay small', async () => {
    const N = 200_000;
    const before = Array.from({ length: N }, (_, i) => `row ${i} some`).join('\n') + '\n';
    const { request, after } = await payloadOf(before, 'edit_file', {
      old_string: 'some',
      new_string: 'SOME',
      replace_all: true,
    });
    expect(after).toBe(before.replaceAll('some', 'SOME'));
    const r = renderPayload(request.payload, createStyle(false), 100);
    expect(r.title).toContain(`${N} places`);
    expect(r.body.line(r.body.count - 1)).toMatch(/row 199999 \{?\+?SOME/);
    const screen = await page(r, ['G', 'q']);
    expect(screen).toMatch(/of 400,00\d/);
    expect(payloadText(request).length).toBeLessThan(100_000);
  }, 60_000);

  it('one-word change inside a 20 MB line: the change is on screen in both rows', async () => {
    const big = `${'a'.repeat(10_000_000)}NEEDLE${'b'.repeat(10_000_000)}`;
    const { request, after } = await payloadOf(`x\n${big}\ny\n`, 'edit_file', {
      old_string: 'NEEDLE',
      new_string: 'PIN',
    });
    expect(after).toBe(`x\n${big.replace('NEEDLE', 'PIN')}\ny\n`);
    let t0 = performance.now();
    const r = renderPayload(request.payload, createStyle(false), 100);
    console.log('render', performance.now() - t0);
    t0 = performance.now();
    const rows = Array.from({ length: r.body.count }, (_, i) => r.body.line(i));
    expect(rows.some((l) => l.includes('NEEDLE'))).toBe(true);
    expect(rows.some((l) => l.includes('PIN'))).toBe(true);
    console.log('rows', performance.now() - t0);
    t0 = performance.now();
    const screen = await page(r, ['q']); // search: see rt36-pager-long-line.test.ts
    expect(screen).toMatch(/PIN/);
    console.log('pager search', performance.now() - t0);
    t0 = performance.now();
    const text = payloadText(request);
    console.log('payloadText', performance.now() - t0);
    expect(text).toContain('PIN');
    expect(text.length).toBeLessThan(100_000);
  }, 60_000);
});
