import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';
import { gnuPatch } from './rt53-helpers.js';

// Promises 1, 2 and 4 at scale: millions of hits, 1M-line files, a 10 MB line.

function counts(diff: string) {
  let added = 0;
  let removed = 0;
  let nl = 0;
  let start = 0;
  while (start < diff.length) {
    let end = diff.indexOf('\n', start);
    if (end === -1) end = diff.length;
    else nl++;
    const c = diff.charCodeAt(start);
    if (c === 43 && !diff.startsWith('+++ ', start)) added++;
    else if (c === 45 && !diff.startsWith('--- ', start)) removed++;
    start = end + 1;
  }
  return { added, removed, diffLines: nl };
}

async function scaleCase(text: string, oldS: string, newS: string, expected: string) {
  const before = Buffer.from(text);
  const dir = tempDir({ 'f.txt': before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  let payload: any;
  const gated = new ApprovalToolset(toolset, {
    approve: (req) => {
      payload = req.payload;
      return { approved: true };
    },
  });
  const outcome = await gated.callTool('edit_file', {
    path: '/f.txt',
    old_string: oldS,
    new_string: newS,
    replace_all: true,
  });
  const after = fs.readFileSync(path.join(dir, 'f.txt'));
  if (!outcome.ok) return { errs: [`refused ${outcome.error.code}: ${outcome.error.message.slice(0, 300)}`] };
  const errs: string[] = [];
  if (!after.equals(Buffer.from(expected)))
    errs.push(`written != split/join (${after.length} vs ${Buffer.byteLength(expected)} bytes)`);
  // diffCoarse (time budget) is documented; the coarse diff must still be exact.
  const c = counts(payload.unifiedDiff);
  if (c.added !== payload.added || c.removed !== payload.removed || c.diffLines !== payload.diffLines)
    errs.push(
      `counts payload +${payload.added} -${payload.removed} ${payload.diffLines} vs text +${c.added} -${c.removed} ${c.diffLines}`,
    );
  const applied = gnuPatch(dir, before, payload.unifiedDiff);
  if (typeof applied === 'string') errs.push(applied);
  else if (!applied.equals(after)) errs.push(`patched != written (${applied.length} vs ${after.length})`);
  return {
    errs,
    replacements: (outcome.data as any).replacements_made,
    diffChars: payload.unifiedDiff.length,
  };
}

describe('rt53 scale', () => {
  it('1M lines, 1M hits, $& literal', async () => {
    const text = 'x = 1;\n'.repeat(1_000_000);
    const r = await scaleCase(text, '1', '$&2', text.split('1').join('$&2'));
    expect(r.errs).toEqual([]);
    expect(r.replacements).toBe(1_000_000);
  });
  it('a 10 MB line, 2.5M hits, each new_string a newline (line count explodes)', async () => {
    const text = 'abcd'.repeat(2_500_000);
    const r = await scaleCase(text, 'cd', '$$\n', text.split('cd').join('$$\n'));
    expect(r.errs).toEqual([]);
  });
  it('1M CRLF lines: every line end removed (every change joins two lines)', async () => {
    const text = 'ab\r\n'.repeat(1_000_000);
    const r = await scaleCase(text, '\r\n', '', text.split('\r\n').join(''));
    expect(r.errs).toEqual([]);
  });
  it('500k non-ASCII lines, astral new text, BOM, no final newline', async () => {
    const text = `\uFEFF${'é = 1;\n'.repeat(500_000)}é = 1;`;
    const r = await scaleCase(text, 'é', '😀$1', text.split('é').join('😀$1'));
    expect(r.errs).toEqual([]);
  });
  it('ASCII with BOM, 600k hits at line start and end, LF->two lines', async () => {
    const text = `\uFEFF${'q mid q\n'.repeat(600_000)}`;
    const r = await scaleCase(text, 'q', "$'\n$`", text.split('q').join("$'\n$`"));
    expect(r.errs).toEqual([]);
  });
  it('1M-line file: hashed pages from two toolsets and a 10 MB line read, typed errors only', async () => {
    let text = '';
    for (let i = 0; i < 1_000_000; i++) text += i % 3 === 0 ? '}\n' : `line ${i % 1000}\n`;
    text += `${'z'.repeat(10 * 1024 * 1024)}\n`;
    const dir = tempDir({ 'big.txt': text });
    const a = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const b = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const pa = await a.callTool('read_file', { path: '/big.txt', hashes: true, offset: 999_990, limit: 20 });
    const pb = await b.callTool('read_file', { path: '/big.txt', hashes: true, offset: 999_990, limit: 20 });
    expect(pa.ok && pb.ok).toBe(true);
    expect((pa as any).data.content).toBe((pb as any).data.content);
    const content = (pa as any).data.content as string;
    const big = await b.callTool('read_file', { path: '/big.txt', hashes: true, offset: 1_000_001 });
    expect(big.ok).toBe(true);
    const last = (big as any).data.content as string;
    expect((big as any).data.truncated).toBe(true);
    expect(last.length).toBeLessThan(60_000); // the 10 MB line is cut
    // edit the 10 MB line by its anchor, from the other toolset's own read
    const anchor = last.slice(0, last.indexOf('|'));
    const e = await b.callTool('edit_lines', {
      path: '/big.txt',
      operations: [{ op: 'replace_line', hash: anchor, content: 'short' }],
      sanity: 'warn',
    });
    expect(e.ok ? 'ok' : e.error.code).toBe('ok');
    const now = fs.readFileSync(path.join(dir, 'big.txt'), 'utf8');
    expect(now.endsWith('}\nshort\n')).toBe(true);
    // a's anchor for a twin '}' line is from before b's edit; a's read must not resolve it to another line
    const twin = content.split('\n').find((l) => l.endsWith('|}'))!;
    const e2 = await a.callTool('edit_lines', {
      path: '/big.txt',
      operations: [{ op: 'replace_line', hash: twin.slice(0, twin.indexOf('|')), content: 'TWIN' }],
      sanity: 'warn',
    });
    if (e2.ok) {
      const lines = fs.readFileSync(path.join(dir, 'big.txt'), 'utf8').split('\n');
      expect(lines[Number(twin.split('#')[0]) - 1]).toBe('TWIN');
    } else expect(e2.error.code).not.toBe('io_error');
    const bad = await a.callTool('edit_file', { path: '/big.txt', old_string: 'line 5\n', new_string: 'x' });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('edit_not_unique');
  });
});
