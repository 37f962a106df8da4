import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalElicitation } from '../../src/mcp/elicitation.js';
import { capture, cardHtml, mkdir, terminalText } from './screen-helpers.js';

// Promise: "what the person is shown is what runs" / "links drawn". A directory move (move_file on a
// directory) runs on every entry in it; the MCP text lists them, but what do the terminal and the card show?
const text = (h: string) => h.replace(/<[^>]+>/g, ' ');

async function dirMove() {
  const dir = mkdir({ 'd/a.txt': 'x', 'd/sub/b.txt': 'y', 'x.txt': 'top\n', 'a/b/x.txt': 'other\n' });
  // a relative link inside the moved directory: it points at /x.txt now, at /a/b/x.txt after the move
  fs.symlinkSync('../x.txt', path.join(dir, 'd', 'ln'));
  return capture(dir, 'move_file', { source: '/d', destination: '/a/b/d' });
}

describe('directory move', () => {
  it('the MCP text lists what moves (control)', async () => {
    const req = await dirMove();
    expect(approvalElicitation(req).message).toContain('sub/b.txt');
  });

  it('the terminal says it is a directory and lists what moves', async () => {
    const req = await dirMove();
    const t = terminalText(req);
    const all = [t.title, ...t.warnings, ...t.body].join('\n');
    expect(all).toMatch(/director|folder/i);
    expect(all).toContain('sub/b.txt');
  });

  it('the React card says it is a directory and lists what moves', async () => {
    const req = await dirMove();
    const all = text(cardHtml(req));
    expect(all).toMatch(/director|folder/i);
    expect(all).toContain('sub/b.txt');
  });

  it('a relative link inside the moved directory that will point elsewhere is named, with its new target (terminal)', async () => {
    const req = await dirMove();
    const t = terminalText(req);
    const all = [t.title, ...t.warnings, ...t.body].join('\n');
    expect(all).toContain('/a/b/x.txt');
  });
});
