import { describe, expect, it } from 'vitest';
import { lineHash } from '../../src/edit/line-hash.js';
import { read } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

// Lines 3 and 5 are twins with identical neighbours: no rung of the ladder tells them apart by
// their own hash (a read shows them by position anchors instead, see the last test).
const DUP = lineHash('dup();');
const TEXT = 'start();\na = 1;\ndup();\na = 1;\ndup();\na = 1;\nend();\n';

async function hashes(toolset: ReturnType<typeof project>['toolset']) {
  const content = String(ok(await toolset.callTool('read_file', { path: '/t.js', hashes: true })).content);
  return content.split('\n').map((l) => l.slice(l.indexOf('#') + 1, l.indexOf('|')));
}

describe('edit_lines range endpoints that stay ambiguous', () => {
  it('refuses with anchor_context_ambiguous naming the endpoint and listing the candidates', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const h = await hashes(toolset);
    const start = err(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'replace_range', start_hash: DUP, end_hash: h[6], content: 'x();' }],
      }),
    );
    expect(start.code).toBe('anchor_context_ambiguous');
    expect(start.message).toMatch(/start_hash/);
    expect(start.details).toMatchObject({ anchor_field: 'start_hash', anchor: DUP });
    // Candidates are listed by the anchors a read shows: each names its line.
    expect(start.details?.candidates).toEqual([`3#${h[2]}|dup();`, `5#${h[4]}|dup();`]);
    const end = err(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'delete_range', start_hash: h[0], end_hash: DUP }],
      }),
    );
    expect(end.code).toBe('anchor_context_ambiguous');
    expect(end.details).toMatchObject({ anchor_field: 'end_hash' });
    expect(read(dir, 't.js')).toBe(TEXT);
  });

  it('a single-line op on the same twin without occurrence is anchor_ambiguous', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const h = await hashes(toolset);
    const single = err(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [
          { op: 'replace_line', hash: h[0], content: 'begin();' },
          { op: 'delete_line', hash: DUP },
        ],
      }),
    );
    expect(single.code).toBe('anchor_ambiguous');
    expect(single.details).toMatchObject({ anchor_field: 'hash' });
    expect(read(dir, 't.js')).toBe(TEXT);
  });

  it('the anchors a read shows tell the twins apart, so the same edits go through', async () => {
    const { dir, toolset } = project({ 't.js': TEXT });
    const h = await hashes(toolset);
    expect(new Set(h).size).toBe(h.length);
    ok(
      await toolset.callTool('edit_lines', {
        path: '/t.js',
        operations: [{ op: 'delete_line', hash: h[4] }],
      }),
    );
    expect(read(dir, 't.js')).toBe('start();\na = 1;\ndup();\na = 1;\na = 1;\nend();\n');
  });
});
