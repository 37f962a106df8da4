// rt44 (over-refusal): a page read of a version the toolset did not read whole, then an edit_lines call
// below it; the page's anchor for a twin ABOVE the edit (before must_refresh_from_line) is refused.
// History: whole hashed read (V0); another agent inserts a line at the top (V1); the model re-reads only
// lines 1-6 (a page of V1); edits line 6 by the page's anchor (result: must_refresh_from_line 6); then
// edits line 3 (a `}` twin, shown by the page as 3#<context anchor bound to V1>). The toolset keeps the
// whole read V0 and the last result's diff anchors only: the page's anchors were dropped by the edit
// (src/tools/edit-lines.ts sets `fresh` to the result's anchors), the V1-bound twin anchor names nothing in
// V0, and the call is refused as "from an earlier read". Nothing changed the file but the model's own edit
// below that line, so the anchor is exactly one the latest page gave, still valid by must_refresh_from_line.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAnchors, setup } from './rt40-harness.js';

const V0 = [
  'function a() {',
  '  x();',
  '}',
  'function b() {',
  '  y();',
  '}',
  'function c() {',
  '  z();',
  '}',
];
const text = (l: string[]) => `${l.join('\n')}\n`;

describe('rt44: a page anchor above an edit made by that page', () => {
  it('the twin `}` anchor from the latest page, above the last edit, is accepted', async () => {
    const { ts, file, vpath } = setup(text(V0));
    await readAnchors(ts, vpath);
    const V1 = ['// top', ...V0];
    fs.writeFileSync(file, text(V1));
    const page = await readAnchors(ts, vpath, { offset: 1, limit: 6 }); // lines 1-6 of V1
    // edit line 6 (  y();) by the page's anchor
    const r1: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: page[5]!, content: '  y(1);' }],
    });
    expect(r1.ok, JSON.stringify(r1.error)).toBe(true);
    expect(r1.data.must_refresh_from_line).toBe(6);
    // line 4 is `}` (end of a), a twin: the page showed it as 4#<context anchor>
    expect(V1[3]).toBe('}');
    const r2: any = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: page[3]!, content: '} // end a' }],
    });
    expect(r2.ok, JSON.stringify(r2.error)).toBe(true);
    const want = V1.slice();
    want[5] = '  y(1);';
    want[3] = '} // end a';
    expect(fs.readFileSync(file, 'utf8')).toBe(text(want));
  });
});
