import fs from 'node:fs';
import path from 'node:path';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { approvalElicitation } from '../../src/mcp/elicitation.js';
import { capture, mkdir } from './screen-helpers.js';

// Promise: MCP text survives Markdown (hosts render it). Rendered here with `marked` (GFM).
const decode = (h: string) =>
  h
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

function outsidePre(html: string): string {
  return html.replace(/<pre>[\s\S]*?<\/pre>/g, '');
}

const contents: [string, string][] = [
  ['a line of ```', 'a\n```\n<img src=x onerror=alert(1)>\n```\nb\n'],
  ['a line of 12 backticks', `a\n${'`'.repeat(12)}\n# heading\n`],
  ['tildes', 'a\n~~~\n# h\n~~~\n'],
  ['HTML comment', 'a\n<!-- hide\nthis -->\nb\n'],
  ['details', '<details><summary>ok</summary>\nrm -rf /\n</details>\n'],
  ['link reference definition', '[x]: http://evil.example\n[click][x]\n'],
  ['setext heading', 'Title\n=====\n'],
  ['table', '| a | b |\n|---|---|\n| 1 | 2 |\n'],
  ['indented code', '    indented\n\tcode\n'],
  ['CR alone', 'a\rb\n'],
  ['bidi + escape', 'x\u202ey\u001b[2J\n'],
  ['long line of backticks past the window', `${'x'.repeat(5000)}${'`'.repeat(300)}\n`],
];

describe('MCP elicitation text through a Markdown renderer', () => {
  it.each(contents)('%s: the body stays one code block with every line as written', async (_n, content) => {
    const dir = mkdir({ 'f.md': 'old\n' });
    const req = await capture(dir, 'write_file', { path: '/f.md', content });
    const msg = approvalElicitation(req).message;
    const html = marked.parse(msg) as string;
    const out = outsidePre(html);
    expect(out).not.toMatch(/<(a|img|details|h1|h2|h3|table|code|hr|em|strong)\b|<!--/);
    const pres = [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) => decode(m[1]!));
    expect(pres.length).toBe(1);
    const fence = msg.match(/^(`{3,})text$/m)![1]!;
    const block = msg.split(`${fence}text\n`)[1]!.split(`\n${fence}`)[0]!;
    expect(pres[0]!.replace(/\n$/, '')).toBe(block);
  });

  it('title: a path that GFM autolinks (www.) is not turned into a link', async () => {
    const dir = mkdir({});
    const req = await capture(dir, 'write_file', { path: '/www.evil.example/x.md', content: 'hi\n' });
    const html = marked.parse(approvalElicitation(req).message) as string;
    expect(outsidePre(html)).not.toMatch(/<a\b/);
  });

  it('directory-move entry names with Markdown stay text', async () => {
    const dir = mkdir({ 'd/<!-- x': 'a', 'd/*b*': 'b', 'd/[c]: http:': 'c', 'd/```': 'd' });
    fs.mkdirSync(path.join(dir, 'e'));
    const req = await capture(dir, 'move_file', { source: '/d', destination: '/z' });
    const html = marked.parse(approvalElicitation(req).message) as string;
    expect(outsidePre(html)).not.toMatch(/<(a|img|em|strong|code)\b|<!--/);
  });
});

describe('escapeMarkdown breaks every GFM autolink form', () => {
  it.each([
    '/www.evil.example/x.md',
    '/WWW.Evil.example',
    '/a (www.x.com)/b',
    '/https://evil.example/x',
    '/http:/x/ftp://y',
    '/mailto:me@evil.example',
    '/xmpp:me@evil.example',
    '/me@evil.example.txt',
    '/a_www.b.com_/c',
  ])('%s stays text and reads as written', async (name) => {
    const { escapeMarkdown } = await import('../../src/mcp/payload-text.js');
    const html = marked.parse(escapeMarkdown(name)) as string;
    expect(html).not.toMatch(/<a\b/);
    expect(decode(html).trim()).toBe(name);
  });
});
