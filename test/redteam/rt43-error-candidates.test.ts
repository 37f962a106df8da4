// rt43: anchors from an error's details.candidates. An error lists candidates as the anchors a read of the
// file AS IT IS NOW shows (`LINE#HASH|content`), but the toolset does not record them as given: when the
// file changed since the last hashed read, the next call resolves a candidate against that read, where a
// twin's position anchor (hash of text and line number) can name another line — it is then followed from
// there to where that other line is now.
// History: read A shows foo() unique (`2#H`); outside, foo() gets three more copies; whole re-read B; outside,
// a line is inserted at the top (no re-read). The model passes `H`: anchor_ambiguous, candidates = lines 3-6.
// Each candidate used as given must edit its line (or be refused, file unchanged).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCHOR_CODES, readAnchors, setup } from './rt40-harness.js';

const V0 = ['x();', 'foo();', 'y();'];
const V1 = ['x();', 'foo();', 'foo();', 'foo();', 'foo();', 'y();'];
const V2 = ['new();', ...V1];
const text = (l: string[]) => `${l.join('\n')}\n`;

async function history() {
  const s = setup(text(V0));
  const a = await readAnchors(s.ts, s.vpath);
  fs.writeFileSync(s.file, text(V1));
  await readAnchors(s.ts, s.vpath);
  fs.writeFileSync(s.file, text(V2));
  const hash = a[1]!.split('#')[1]!;
  const r: any = await s.ts.callTool('edit_lines', {
    path: s.vpath,
    operations: [{ op: 'replace_line', hash, content: 'EDITED' }],
    sanity: 'off',
  });
  return { ...s, r };
}

describe('rt43: an anchor taken from an error’s candidates', () => {
  // Fixed by twins' anchors bound to the file's version (versionSalt): no two versions show one
  // anchor string for two lines.
  it('each candidate edits the line it was listed for, or is refused', async () => {
    const { r } = await history();
    expect(r.ok).toBe(false);
    const candidates: string[] = r.error.details?.candidates ?? [];
    // The file changed since the read the model holds: no candidates are listed (their anchors
    // would be this version's), the refusal says to re-read.
    if (candidates.length === 0) {
      expect(r.error.code).toBe('anchor_stale');
      return;
    }
    const wrong: string[] = [];
    for (const c of candidates) {
      const s = await history();
      const before = fs.readFileSync(s.file, 'utf8');
      const e: any = await s.ts.callTool('edit_lines', {
        path: s.vpath,
        operations: [{ op: 'replace_line', hash: c, content: 'EDITED' }],
        sanity: 'off',
      });
      const after = fs.readFileSync(s.file, 'utf8');
      const listed = Number(c.split('#')[0]) - 1;
      if (e.ok) {
        const at = after.split('\n').indexOf('EDITED');
        if (at !== listed) wrong.push(`${c} (listed for line ${listed + 1}) edited line ${at + 1}`);
      } else {
        expect(ANCHOR_CODES).toContain(e.error.code);
        expect(after).toBe(before);
      }
    }
    expect(wrong, `error: ${r.error.message}`).toEqual([]);
  });
});
