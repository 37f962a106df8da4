import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { diffRows, diffSegments } from '../../src/react/diff-rows.js';
import { hasPendingApprovals, MessageApprovals, PayloadView } from '../../src/react/index.js';
import { wordsOf } from '../../src/react/row-words.js';
import { project } from '../tools/fixture.js';

const html = (payload: ApprovalPayload) => renderToStaticMarkup(createElement(PayloadView, { payload }));

/** The payload the real tool computes (never hand-written). */
async function payloadOf(
  files: Record<string, string>,
  tool: string,
  args: unknown,
): Promise<ApprovalPayload> {
  const { toolset } = project(files);
  const r = await toolset.needsApproval(tool, args, {});
  if (r.status !== 'needs_approval') throw new Error(`expected needs_approval, got ${r.status}`);
  return r.payload;
}

describe('diff model', () => {
  it('kinds come from hunk positions: an added "++ x" line is a change, not a header', () => {
    const rows = diffRows('--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@\n keep\n-old word\n+++ x\n');
    expect(rows.map((r) => [r.kind, r.text, r.oldNo, r.newNo])).toEqual([
      ['hunk', '@@ -3,2 +3,2 @@', 3, 3],
      ['context', 'keep', 3, 3],
      ['del', 'old word', 4, undefined],
      ['add', '++ x', undefined, 4],
    ]);
    expect(
      wordsOf(rows[2]!)
        ?.filter((w) => w.changed)
        .map((w) => w.text),
    ).toEqual(['old', 'word']);
  });

  it('unchanged lines between hunks become gaps, expandable from the new text', () => {
    const newText = `${Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n')}\n`;
    const rows = diffRows('@@ -2,1 +2,1 @@\n-x\n+l2\n@@ -15,1 +15,1 @@\n-y\n+l15\n');
    const gaps = diffSegments(rows, { newText }).filter((s) => s.kind === 'gap');
    expect(gaps.map((g) => [g.fromNew, g.count, g.lines?.[0]])).toEqual([
      [1, 1, 'l1'],
      [3, 12, 'l3'],
      [16, 5, 'l16'],
    ]);
    expect(diffSegments(rows).filter((s) => s.kind === 'gap')[1]).toMatchObject({ count: 12 });
  });
});

describe('payload views (rendered as the terminal UI does)', () => {
  it('edit: title with line and stats, line numbers, changed words marked', async () => {
    const p = await payloadOf({ 'a.js': 'const a = 0;\nconst b = 1;\n' }, 'edit_file', {
      path: '/a.js',
      old_string: 'const b = 1;',
      new_string: 'const b = 2;',
    });
    const out = html(p);
    expect(out).toContain('Edit: /a.js (line 2)');
    expect(out).toMatch(/<mark class="sa-word-del">1<\/mark>/);
    expect(out).toMatch(/<mark class="sa-word-add">2<\/mark>/);
    expect(out).toMatch(/<span class="sa-no">\s*2<\/span>/);
  });

  it('write: new file preview, and the overwrite warning with the diff', async () => {
    const created = html(await payloadOf({}, 'write_file', { path: '/n.txt', content: 'one\ntwo\n' }));
    expect(created).toContain('new file');
    expect(created).toContain('aria-label="New file /n.txt"');
    const over = html(
      await payloadOf({ 'n.txt': 'old\n' }, 'write_file', { path: '/n.txt', content: 'new\n' }),
    );
    expect(over).toContain('⚠ This will overwrite an existing file (was 1 line, now 1 line).');
    expect(over).toContain('sa-word-del');
  });

  it('delete, move onto an existing file, copy', async () => {
    expect(html(await payloadOf({ 'd.txt': 'bye\n' }, 'delete_file', { path: '/d.txt' }))).toContain(
      '⚠ /d.txt will be deleted.',
    );
    const files = { 'a.txt': 'a\n', 'b.txt': 'b\n' };
    const move = html(
      await payloadOf(files, 'move_file', { source: '/a.txt', destination: '/b.txt', overwrite: true }),
    );
    expect(move).toContain('Move: /a.txt → /b.txt');
    expect(move).toContain('⚠ /b.txt exists and will be overwritten.');
    const copy = html(await payloadOf(files, 'copy_file', { source: '/a.txt', destination: '/c.txt' }));
    expect(copy).toContain('Copy: /a.txt → /c.txt');
  });

  it('markup and invisible characters are text: no tags, bidi overrides shown as tokens', async () => {
    const p = await payloadOf({}, 'write_file', {
      path: '/x.html',
      content: '<script>alert(1)</script>\nadmin\u202Egnp.exe\n',
    });
    const out = html(p);
    expect(out).not.toContain('<script>');
    expect(out).toContain('&lt;script&gt;');
    expect(out).toContain('admin⟨U+202E⟩gnp.exe');
    expect(out).not.toContain('\u202E');
  });
});

describe('MessageApprovals', () => {
  it('pairs a pending tool part with its payload; outcomes show the error code', async () => {
    const payload = await payloadOf({ 'a.txt': 'x\n' }, 'write_file', { path: '/a.txt', content: 'y\n' });
    const message = {
      parts: [
        { type: 'tool-write_file', toolCallId: 'c1', state: 'approval-requested', approval: { id: 'ap1' } },
        {
          type: 'data-sandbox-approval',
          data: { toolCallId: 'c1', toolName: 'write_file', approvalId: 'ap1', payload, expiresAt: '' },
        },
        {
          type: 'tool-edit_file',
          toolCallId: 'c2',
          state: 'output-available',
          output: { ok: false, error: { code: 'stale_approval', message: '/b.txt changed' } },
        },
      ],
    };
    const out = renderToStaticMarkup(
      createElement(MessageApprovals, { message, addToolApprovalResponse: () => {} }),
    );
    expect(out).toContain('Write: /a.txt');
    expect(out).toContain('Approve');
    expect(out).toContain('data-error-code="stale_approval"');
  });
});

describe('approved calls whose request failed', () => {
  const part = (state: string, approved?: boolean) => ({
    type: 'tool-edit_file',
    toolCallId: 'c1',
    state,
    input: {},
    ...(approved === undefined ? {} : { approval: { id: 'a1', approved } }),
  });
  const states = [
    'input-available',
    'approval-requested',
    'approval-responded',
    'output-available',
    'output-denied',
  ];

  it('hasPendingApprovals: pending iff asked, or approved without a result while no request is in flight', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ state: fc.constantFrom(...states), approved: fc.boolean() }), { maxLength: 6 }),
        fc.option(fc.boolean(), { nil: undefined }),
        (parts, busy) => {
          const messages = [{ parts: parts.map((p) => part(p.state, p.approved)) }];
          const expected = parts.some(
            (p) =>
              p.state === 'approval-requested' ||
              (busy === false && p.state === 'approval-responded' && p.approved),
          );
          expect(hasPendingApprovals(messages, busy === undefined ? {} : { busy })).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the card reads "running…" while busy, and "did not run" with Retry when not', () => {
    const render = (busy: boolean) =>
      renderToStaticMarkup(
        createElement(MessageApprovals, {
          message: { parts: [part('approval-responded', true)] },
          addToolApprovalResponse: () => undefined,
          busy,
          onRetry: () => undefined,
        }),
      );
    expect(render(true)).toContain('running…');
    expect(render(false)).not.toContain('running…');
    expect(render(false)).toContain('data-error-code="not_run"');
    expect(render(false)).toContain('>Retry</button>');
  });
});
