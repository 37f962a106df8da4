// Anchors from a hashed read keep naming the line the model read after the file
// changed in thousands of places since (another tool, the user, a formatter): the
// line is followed through a diff of the read and the file that stays near-linear.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/seeded-rng.js';
import { err, ok, project } from './fixture.js';

describe('edit_lines after many changes since the read', () => {
  it('resolves each read anchor to its line, or refuses the ones whose line changed', async () => {
    const n = 200_000;
    const lines = Array.from({ length: n }, (_, i) => (i % 5 === 4 ? '}' : `  call(${i});`));
    const { dir, toolset } = project({ 'big.ts': `${lines.join('\n')}\n` });
    const page = ok<{ content: string }>(
      await toolset.callTool('read_file', { path: '/big.ts', offset: 150_001, limit: 40, hashes: true }),
    );
    const anchors = page.content.split('\n').map((l) => l.slice(0, l.indexOf('|')));
    // Someone else inserts 3 lines at ~1% of places and deletes ~0.5% of lines.
    const rand = seededRandom(7);
    const out: string[] = [];
    const deleted = new Set<number>();
    lines.forEach((l, i) => {
      const r = rand();
      if (r < 0.01) out.push('// added', '// added', '// added');
      if (r > 0.995 && i < 150_000) deleted.add(i);
      else out.push(i === 150_011 ? `${l} // touched` : l);
      // Right inside the page read, too: every line there has new neighbours.
      if (i >= 150_000 && i < 150_040 && i % 3 === 0) out.push('// added here');
    });
    fs.writeFileSync(path.join(dir, 'big.ts'), `${out.join('\n')}\n`);
    // The line edited by someone else is not silently replaced: its anchor is stale.
    const refused = err(
      await toolset.callTool('edit_lines', {
        path: '/big.ts',
        operations: [{ op: 'replace_line', hash: anchors[11]!, content: '  done(11);' }],
      }),
    );
    expect(refused.code).toBe('anchor_stale');
    expect(refused.message).toContain('changed or deleted since');
    expect(fs.readFileSync(path.join(dir, 'big.ts'), 'utf8')).toBe(`${out.join('\n')}\n`);

    // Distinctive lines of the page (a moved `}` must be confirmed by its line number), each
    // replaced through its anchor from the old read.
    const picked = [0, 1, 2, 3, 5, 6, 7, 8, 10, 15, 20, 30].map((k) => ({ k, anchor: anchors[k]! }));
    const result = ok<{ content?: string }>(
      await toolset.callTool('edit_lines', {
        path: '/big.ts',
        operations: picked.map(({ k, anchor }) => ({
          op: 'replace_line',
          hash: anchor,
          content: `  done(${150_000 + k});`,
        })),
      }),
    );
    expect(result).toBeTruthy();
    const now = fs.readFileSync(path.join(dir, 'big.ts'), 'utf8').split('\n');
    // Each replacement sits where the line read was: after the line before it.
    for (const { k } of picked) {
      const at = now.indexOf(`  done(${150_000 + k});`);
      expect(at, `line ${150_001 + k}`).toBeGreaterThan(0);
      expect(now.includes(`  call(${150_000 + k});`)).toBe(false);
      const before = lines[150_000 + k - 1]!;
      const prev = now[at - 1] === '// added here' ? now[at - 2] : now[at - 1];
      if (!picked.some((p) => p.k === k - 1)) expect(prev).toBe(before);
    }
    expect(now.filter((l) => l.startsWith('  done(')).length).toBe(picked.length);
  });
});
