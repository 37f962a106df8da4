import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/edit/line-hash.js';
import { read } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

const FILE = [
  'export function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item.price;',
  '  }',
  '  return sum;',
  '}',
  '',
  'export function count(items) {',
  '  return items.length;',
  '}',
  '',
].join('\n');

/** Reads with hashes and returns a line → "LINE#HASH" map. */
async function anchors(toolset: ReturnType<typeof project>['toolset'], p = '/f.js') {
  const content = String(ok(await toolset.callTool('read_file', { path: p, hashes: true })).content);
  return content.split('\n').map((l) => l.slice(0, l.indexOf('|')));
}

describe('edit_lines', () => {
  it('replaces, inserts and deletes by anchor in one atomic batch, with invalidation scope and fresh anchors', async () => {
    const { dir, toolset } = project({ 'f.js': FILE });
    const a = await anchors(toolset);
    const r = ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [
          { op: 'replace_line', hash: a[1], content: '  let sum = 0; // running total' },
          { op: 'insert_after', hash: a[9], content: '  // counted' },
          { op: 'delete_line', hash: a[5] },
        ],
      }),
    );
    expect(r).toMatchObject({ ops_applied: 3, lines_before: 11, lines_after: 11, net_line_change: 0 });
    expect(r).toMatchObject({
      anchors_valid_through: 1,
      must_refresh_from_line: 2,
      writer_type: 'edit',
      baseline_continuity: 'clean',
    });
    expect(String(r.diff)).toMatch(/\+2#[0-9a-f]{6}\| {2}let sum = 0; \/\/ running total/);
    expect(read(dir, 'f.js')).toBe(
      FILE.replace('  let sum = 0;', '  let sum = 0; // running total')
        .replace('  return sum;\n', '')
        .replace('  return items.length;\n', '  return items.length;\n  // counted\n'),
    );
  });

  it('accepts "LINE#HASH|content" and bare hashes; line numbers are advisory', async () => {
    const { dir, toolset } = project({ 'f.js': FILE });
    const content = String(
      ok(await toolset.callTool('read_file', { path: '/f.js', hashes: true })).content,
    ).split('\n');
    ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'replace_line', hash: content[3], line: 40, content: '    sum += item.cost;' }],
      }),
    );
    expect(read(dir, 'f.js')).toContain('sum += item.cost;');
  });

  it('follows a line that moved when its context agrees, and refuses a changed line as anchor_stale', async () => {
    const { dir, toolset } = project({ 'f.js': FILE });
    const a = await anchors(toolset);
    fs.writeFileSync(path.join(dir, 'f.js'), `// header\n// added above\n${FILE}`);
    ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'replace_line', hash: a[3], line: 4, content: '    sum += item.price * 2;' }],
      }),
    );
    expect(read(dir, 'f.js').split('\n')[5]).toBe('    sum += item.price * 2;');
    const b = await anchors(toolset);
    fs.writeFileSync(
      path.join(dir, 'f.js'),
      read(dir, 'f.js').replace('return items.length;', 'return items.length + 0;'),
    );
    const e = err(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'delete_line', hash: b[11] }],
      }),
    );
    expect(e.code).toBe('anchor_stale');
    expect(e.details?.suggested_action).toBe('re-read_file');
  });

  it('uses occurrence for repeated lines, refuses them without it, and disambiguates twins by context', async () => {
    const text = 'a();\nx = compute(1);\nb();\nx = compute(1);\nc();\n';
    const { dir, toolset } = project({ 'r.js': text });
    await anchors(toolset, '/r.js');
    // The line's own hash (twins share it), not the unique anchor the read shows.
    const amb = err(
      await toolset.callTool('edit_lines', {
        path: '/r.js',
        operations: [{ op: 'replace_line', hash: lineHash('x = compute(1);'), content: 'y' }],
      }),
    );
    expect(amb.code).toBe('anchor_ambiguous');
    expect((amb.details?.candidates as string[]).length).toBe(2);
    ok(
      await toolset.callTool('edit_lines', {
        path: '/r.js',
        operations: [
          {
            op: 'replace_line',
            hash: lineHash('x = compute(1);'),
            occurrence: 2,
            line: 4,
            content: 'x = compute(2);',
          },
        ],
      }),
    );
    expect(read(dir, 'r.js')).toBe('a();\nx = compute(1);\nb();\nx = compute(2);\nc();\n');
    // The snapshot from the read tells the two twins apart by their neighbours.
    const fresh = await anchors(toolset, '/r.js');
    fs.writeFileSync(path.join(dir, 'r.js'), `x = compute(1);\n${read(dir, 'r.js')}`);
    ok(
      await toolset.callTool('edit_lines', {
        path: '/r.js',
        operations: [{ op: 'replace_line', hash: fresh[1], content: 'x = compute(9);' }],
      }),
    );
    expect(read(dir, 'r.js')).toBe('x = compute(1);\na();\nx = compute(9);\nb();\nx = compute(2);\nc();\n');
  });

  it('refuses a low-entropy anchor that moved since the read unless confirmed by its line, suggesting neighbours', async () => {
    const { dir: fdir, toolset } = project({ 'f.js': FILE });
    const a = await anchors(toolset);
    // The file changed since the read: "  }" is still unique but has moved, so it needs its exact line.
    fs.writeFileSync(path.join(fdir, 'f.js'), `// header\n${FILE}`);
    const e = err(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'delete_line', hash: a[4]!.split('#')[1] }],
      }),
    );
    expect(e.code).toBe('anchor_low_entropy');
    expect((e.details?.neighbor_anchors as string[]).length).toBeGreaterThan(0);
    const { dir, toolset: t2 } = project({ 'g.js': 'const a = 1;\n;;\nconst b = 2;\n' });
    const g = await anchors(t2, '/g.js');
    ok(
      await t2.callTool('edit_lines', {
        path: '/g.js',
        operations: [{ op: 'delete_line', hash: g[1], line: 2 }],
      }),
    );
    expect(read(dir, 'g.js')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('rejects the whole batch on one bad or overlapping op, swaps reversed ranges, refuses equal endpoints', async () => {
    const { dir, toolset } = project({ 'f.js': FILE });
    const a = await anchors(toolset);
    const bad = err(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [
          { op: 'replace_line', hash: a[1], content: '  let sum = 1;' },
          { op: 'delete_line', hash: 'ffffff' },
        ],
      }),
    );
    expect(bad.code).toBe('anchor_stale');
    expect(read(dir, 'f.js')).toBe(FILE);
    const overlap = err(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [
          { op: 'replace_range', start_hash: a[1], end_hash: a[3], content: 'x' },
          { op: 'delete_line', hash: a[2] },
        ],
      }),
    );
    expect(overlap.message).toMatch(/overlap/);
    const same = err(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'delete_range', start_hash: a[1], end_hash: a[1] }],
      }),
    );
    expect(same.code).toBe('invalid_range_order');
    const swapped = ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [
          {
            op: 'replace_range',
            start_hash: a[3],
            end_hash: a[2],
            content: '  let sum = 0; for (const item of items) {',
          },
        ],
      }),
    );
    expect(swapped.auto_corrections).toEqual([
      {
        type: 'range_order_swapped',
        detail: 'start_line (4) was after end_line (3). Swapped automatically.',
        operation: 1,
      },
    ]);
  });

  it('rolls back suspicious results (safety_check_failed) unless sanity is warn', async () => {
    const { dir, toolset } = project({ 'f.js': FILE });
    const a = await anchors(toolset);
    const dup = {
      path: '/f.js',
      operations: [
        { op: 'replace_line', hash: a[1], content: '  let sum = 0;\n  for (const item of items) {' },
      ],
    };
    const e = err(await toolset.callTool('edit_lines', dup));
    expect(e.code).toBe('safety_check_failed');
    expect((e.details?.safety_warnings as string[]).join(' ')).toMatch(/bracket balance|identical adjacent/);
    expect(read(dir, 'f.js')).toBe(FILE);
    const warned = ok(await toolset.callTool('edit_lines', { ...dup, sanity: 'warn' }));
    expect((warned.warnings as string[]).length).toBeGreaterThan(0);
  });

  it('accepts file_path as a deprecated alias (path wins), rejects mixed fields, reports mixed baselines', async () => {
    const { toolset } = project({ 'f.js': FILE, 'g.js': FILE });
    const a = await anchors(toolset);
    const r = ok(
      await toolset.callTool('edit_lines', {
        file_path: '/f.js',
        operations: [{ op: 'replace_line', hash: a[1], content: '  let sum = 5;' }],
      }),
    );
    expect((r.warnings as string[]).join()).toMatch(/file_path is deprecated/);
    const mixed = err(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'replace_line', hash: a[1], start_hash: a[1], content: 'x' }],
      }),
    );
    expect(mixed.code).toBe('invalid_argument');
    expect(err(await toolset.callTool('edit_lines', { operations: [] })).code).toBe('invalid_argument');
    ok(await toolset.callTool('write_file', { path: '/g.js', content: FILE }));
    const g = await anchors(toolset, '/g.js');
    const r2 = ok(
      await toolset.callTool('edit_lines', {
        path: '/g.js',
        file_path: '/f.js',
        operations: [{ op: 'replace_line', hash: g[1], content: '  let sum = 7;' }],
      }),
    );
    expect(r2).toMatchObject({ path: '/g.js', baseline_continuity: 'mixed' });
  });
});
