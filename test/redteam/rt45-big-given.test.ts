// rt45: timing and correctness at scale — a 200k-line file with many twin lines (`}`, `  return 1;`), the
// toolset remembering the newest 4,096 given anchors (pages of later versions, hundreds of edit_lines
// results), then outside changes (a line added at the top, a twin copied in the middle) after which every
// remembered anchor is followed through a diff (followLine per anchor, forcedNearby for lines with copies).
// Reports seconds (console); asserts only correctness: the anchor of a page edits its line or is refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, setup } from './rt40-harness.js';

const N = 200_000;
// edit_lines results made before the outside change (the red team ran 300; CI runs fewer).
const CALLS = Number(process.env.RT45_CALLS ?? 30);
function body(): string[] {
  const out: string[] = [];
  for (let i = 0; i < N; i++) {
    const k = i % 5;
    out.push(
      k === 0 ? `function f${i}() {` : k === 1 ? '  return 1;' : k === 2 ? '}' : k === 3 ? '' : `// c${i}`,
    );
  }
  return out;
}

describe('rt45: 200k lines, 4,096 remembered anchors, outside changes', () => {
  it('stays correct; reports seconds', async () => {
    const lines = body();
    const { ts, file, vpath } = setup(`${lines.join('\n')}\n`);
    const t = (label: string, t0: number) =>
      console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    let t0 = performance.now();
    let r: any = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 1, limit: 20 });
    t('first page read', t0);
    const first = (r.data.content as string).split('\n').map((l) => l.slice(0, l.indexOf('|')));
    t0 = performance.now();
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'insert_before', hash: first[0]!, content: '// head' }],
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    lines.unshift('// head');
    t('first edit', t0);
    // Pages of the later version: 4,000 anchors given (lines 100,001..104,000).
    const pages: string[] = [];
    t0 = performance.now();
    for (const off of [100_001, 102_001]) {
      r = await ts.callTool('read_file', { path: vpath, hashes: true, offset: off, limit: 2000 });
      expect(r.ok).toBe(true);
      pages.push(...(r.data.content as string).split('\n'));
    }
    t('two 2000-line pages', t0);
    // CALLS edit_lines results (each adds its anchors), editing far below the pages.
    t0 = performance.now();
    const last: string = r.data.content.split('\n')[0];
    let resultAnchor = `${150_001}#`;
    {
      const p: any = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 150_001, limit: 1 });
      resultAnchor = p.data.content.slice(0, p.data.content.indexOf('|'));
    }
    for (let k = 0; k < CALLS; k++) {
      r = await ts.callTool('edit_lines', {
        path: vpath,
        operations: [{ op: 'insert_after', hash: resultAnchor, content: `// note ${k}` }],
        sanity: 'off',
      });
      expect(r.ok, JSON.stringify(r.error)).toBe(true);
      const m = (r.data.diff as string).match(/^\+(\d+#[0-9a-f]{6})\|/m)!;
      resultAnchor = m[1]!;
    }
    t(`${CALLS} edit_lines calls (total)`, t0);
    for (let k = 0; k < CALLS; k++) lines.splice(150_001 + k, 0, `// note ${k}`);
    // Outside (another process): a line added at the top and a `}` copied into the paged stretch.
    const now = fs.readFileSync(file, 'utf8').split('\n');
    now.unshift('// outside');
    now.splice(101_000, 0, '}');
    fs.writeFileSync(`${file}.new`, now.join('\n'));
    execFileSync(process.execPath, [
      '-e',
      `require('fs').renameSync(${JSON.stringify(`${file}.new`)}, ${JSON.stringify(file)})`,
    ]);
    // A page anchor of a line well clear of the copy: function f… at page line 10 (file line 100,010 then).
    const pick = pages.find((l, i) => i > 3000 && l.includes('function f'))!;
    const anchor = pick.slice(0, pick.indexOf('|'));
    const text = pick.slice(pick.indexOf('|') + 1);
    const before = fs.readFileSync(file, 'utf8');
    t0 = performance.now();
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: anchor, content: `${text} // edited` }],
    });
    t(`edit after outside change (followLine over 4,096 anchors) → ${r.ok ? 'ok' : r.error.code}`, t0);
    const after = fs.readFileSync(file, 'utf8');
    if (r.ok) expect(after).toBe(before.replace(`\n${text}\n`, `\n${text} // edited\n`));
    else {
      expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    }
    // And a twin `}` of the second page (right after a function line, far from the copy).
    const ti = pages.findIndex((l, i) => i > 3500 && l.endsWith('|}'));
    const twin = pages[ti]!.slice(0, pages[ti]!.indexOf('|'));
    const twinLine = Number(twin.split('#')[0]) + 1; // +1: the outside line at the top (below it no copy)
    const before2 = fs.readFileSync(file, 'utf8');
    t0 = performance.now();
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: twin, content: '}; // edited' }],
      sanity: 'off',
    });
    t(`twin edit after outside change → ${r.ok ? 'ok' : r.error.code}`, t0);
    const after2 = fs.readFileSync(file, 'utf8').split('\n');
    if (r.ok) {
      const b = before2.split('\n');
      // twinLine + 1 for the } copied in above (line 101,000 < paged line 102,xxx)
      const at = twinLine; // 0-based index of the line after both shifts: (n - 1) + 1 top + 1 copy
      b[at] = '}; // edited';
      expect(after2.join('\n') === b.join('\n'), `edited the wrong } (anchor ${twin})`).toBe(true);
    } else expect(ANCHOR_CODES).toContain(r.error.code);
    // Another outside change, then a page read (it carries the 4,096 anchors through the change too).
    fs.appendFileSync(file, '// tail\n');
    t0 = performance.now();
    r = await ts.callTool('read_file', { path: vpath, hashes: true, offset: 100_001, limit: 10 });
    t('page read after another outside change', t0);
    expect(r.ok).toBe(true);
  }, 600_000);
});
