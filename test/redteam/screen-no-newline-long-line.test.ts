import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { capture, cardHtml, mcpText, mkdir, stripAnsi, terminalText } from './screen-helpers.js';

// Promise: "the first change of a long line is visible" / "a change is never shown as no change".
// Docs: "a one-character change at column 9,001 of a 10,000-character line is on screen,
// highlighted, in both rows". Attack: the same change on the LAST line of a file that has no
// trailing newline — the diff puts "\ No newline at end of file" between the - and + rows.
const a = `${'x'.repeat(9999)}a${'y'.repeat(100)}`;
const b = `${'x'.repeat(9999)}b${'y'.repeat(100)}`;

function pair(lines: string[]): [string, string] {
  const del = lines.find((r) => /^ *\d+ {2,}-/.test(r))!.replace(/^ *\d+ +-/, '');
  const add = lines.find((r) => /^ {4,}\d+ \+/.test(r))!.replace(/^ +\d+ \+/, '');
  return [del, add];
}

async function requests(): Promise<Record<string, ApprovalRequest>> {
  const dir = mkdir({ 'f.txt': a });
  return {
    write: await capture(dir, 'write_file', { path: '/f.txt', content: b }),
    edit: await capture(dir, 'edit_file', {
      path: '/f.txt',
      old_string: `a${'y'.repeat(100)}`,
      new_string: `b${'y'.repeat(100)}`,
    }),
  };
}

describe('long last line without a trailing newline', () => {
  it.each(['write', 'edit'])('%s: terminal rows differ (40 and 80 columns)', async (kind) => {
    const req = (await requests())[kind]!;
    for (const w of [40, 80]) {
      const [del, add] = pair(terminalText(req, false, w).body.map(stripAnsi));
      expect(del).not.toBe(add);
      expect(add).toContain('{+b+}');
    }
  });

  it.each(['write', 'edit'])('%s: MCP text rows differ', async (kind) => {
    const req = (await requests())[kind]!;
    const [del, add] = pair(mcpText(req).split('\n'));
    expect(del).not.toBe(add);
  });

  it.each(['write', 'edit'])('%s: React card highlights the changed word', async (kind) => {
    const req = (await requests())[kind]!;
    expect(cardHtml(req)).toContain('sa-word-add');
  });

  it('control: the same line WITH a trailing newline is shown correctly', async () => {
    const dir = mkdir({ 'f.txt': `${a}\n` });
    const req = await capture(dir, 'write_file', { path: '/f.txt', content: `${b}\n` });
    const [del, add] = pair(terminalText(req, false, 80).body.map(stripAnsi));
    expect(del).not.toBe(add);
  });
});

describe('the card windows long lines', () => {
  it('a 2 MB line: the card shows the first change with "more characters" markers, and stays small', async () => {
    const big = 2_000_000;
    const dir = mkdir({ 'f.txt': `${'x'.repeat(big)}a${'y'.repeat(big)}` });
    const req = await capture(dir, 'edit_file', { path: '/f.txt', old_string: 'xay', new_string: 'xby' });
    const html = cardHtml(req);
    expect(html).toMatch(/<mark class="sa-word-add">b[^<]*<\/mark>/);
    expect(html).toMatch(/…1,999,8\d\d more characters/);
    expect(html.length).toBeLessThan(50_000);
  }, 60_000);
});
