import { describe, expect, it } from 'vitest';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { allLines } from '../../src/terminal/diff-view.js';
import { renderPayload } from '../../src/terminal/render-payload.js';
import { fitWidth, sanitizeLine } from '../../src/terminal/sanitize.js';
import { createStyle } from '../../src/terminal/style.js';
import { project } from '../tools/fixture.js';

const plain = createStyle(false);
const color = createStyle(true);
const ANSI = /\u001b\[/;

async function payload(name: string, args: unknown, files: Record<string, string>): Promise<ApprovalPayload> {
  const { toolset } = project(files);
  const r = await toolset.needsApproval(name, args);
  if (r.status !== 'needs_approval') throw new Error(JSON.stringify(r));
  return r.payload;
}

describe('renderers', () => {
  it('edit: header with line and stats, numbered gutter, word-level highlights', async () => {
    const p = await payload(
      'edit_file',
      { path: '/a.py', old_string: 'total = 0', new_string: 'total = Decimal(0)' },
      {
        'a.py': 'def f(items):\n    total = 0\n    for i in items:\n        total += i\n    return total\n',
      },
    );
    const r = renderPayload(p, plain, 80);
    expect(r.title).toBe('Edit: /a.py (line 2)  +1 −1');
    expect(allLines(r.body).join('\n')).toContain('  2     -    total = 0');
    expect(allLines(r.body).join('\n')).toContain('      2 +    total = {+Decimal(+}0{+)+}');
    expect(allLines(r.body).some((l) => ANSI.test(l))).toBe(false);
    expect(allLines(renderPayload(p, color, 80).body).some((l) => ANSI.test(l))).toBe(true);
  });

  it('write: new file preview, overwrite warning with the diff', async () => {
    const created = renderPayload(
      await payload('write_file', { path: '/n.md', content: '# Title\nbody\n' }, {}),
      plain,
      80,
    );
    expect(created.title).toBe('Write: /n.md (2 lines, 13 B, new file)');
    expect(allLines(created.body)).toEqual(['1 │ # Title', '2 │ body']);
    const over = renderPayload(
      await payload('write_file', { path: '/o.md', content: 'a\nB\nc\nd\n' }, { 'o.md': 'a\nb\nc\n' }),
      plain,
      80,
    );
    expect(over.warnings[0]).toBe('⚠ This will overwrite an existing file (was 3 lines, now 4 lines).');
    expect(over.title).toContain('+2 −1');
  });

  it('delete, move, copy, read, list and unknown payloads each get a clear block', async () => {
    const files = { 'a.txt': 'A\n', 'b.txt': 'B\n' };
    expect(
      renderPayload(await payload('delete_file', { path: '/a.txt' }, files), plain, 80).warnings[0],
    ).toContain('will be deleted');
    expect(
      renderPayload(
        await payload('move_file', { source: '/a.txt', destination: '/b.txt', overwrite: true }, files),
        plain,
        80,
      ).warnings[0],
    ).toContain('overwritten');
    expect(
      renderPayload(await payload('copy_file', { source: '/a.txt', destination: '/c.txt' }, files), plain, 80)
        .title,
    ).toBe('Copy: /a.txt → /c.txt (2 bytes)');
    const unknown = renderPayload(
      { type: 'mystery', description: 'Do a thing', args: { x: 1 } } as never,
      plain,
      80,
      { x: 1 },
    );
    expect(unknown.title).toBe('Do a thing');
    expect(allLines(unknown.body).join('\n')).toContain('"x": 1');
  });

  it('never lets file content drive the terminal: escapes, CR, bidi shown visibly; cuts are marked', async () => {
    const evil = 'ok\u001b[2J\u001b]0;title\u0007\r+ fake line\u202Eabc\u200B\t<tab';
    const line = sanitizeLine(evil);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f\u202e\u200b]/);
    expect(line).toContain('␛[2J');
    expect(line).toContain('␍');
    expect(line).toContain('⟨U+202E⟩');
    const p = await payload('write_file', { path: '/e.txt', content: `${evil}\n` }, {});
    for (const l of allLines(renderPayload(p, color, 80).body))
      expect(l.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0000-\u001f]/);
    expect(fitWidth('x'.repeat(100), 20)).toMatch(/…\+\d+$/);
    expect([...fitWidth('x'.repeat(100), 20)].length).toBeLessThanOrEqual(20);
  });

  it('stats come from the full diff even when the view is cut', async () => {
    const old = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n');
    const p = await payload(
      'write_file',
      { path: '/big.txt', content: old.replaceAll('line', 'LINE') },
      { 'big.txt': old },
    );
    expect(renderPayload(p, plain, 80).title).toContain('+300 −300');
  });
});
