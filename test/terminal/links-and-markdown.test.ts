import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { fenceFor, payloadText } from '../../src/mcp/payload-text.js';
import { PayloadView } from '../../src/react/index.js';
import { allLines } from '../../src/terminal/diff-view.js';
import { KeyReader } from '../../src/terminal/key-reader.js';
import { runPager } from '../../src/terminal/pager.js';
import { renderPayload } from '../../src/terminal/render-payload.js';
import { createStyle } from '../../src/terminal/style.js';
import { fakeTty } from './fake-tty.js';

const plain = createStyle(false);
const screen = (p: ApprovalPayload) => {
  const r = renderPayload(p, plain, 77);
  return [r.title, ...r.warnings, ...allLines(r.body)].join('\n');
};
const web = (p: ApprovalPayload) =>
  renderToStaticMarkup(createElement(PayloadView, { payload: p })).replace(/<[^>]*>/g, '\n');
const request = (payload: ApprovalPayload): ApprovalRequest => ({
  toolName: 'x',
  args: {},
  description: payload.description,
  payload,
});

const linkDelete = {
  type: 'delete',
  description: 'delete /notes.md',
  path: '/notes.md',
  mount: '/',
  fileLines: 0,
  fileBytes: 0,
  preview: '',
  previewTruncated: false,
  symlink: { target: '/.github/workflows/ci.yml' },
} as ApprovalPayload;
const linkCopy = {
  type: 'copy',
  description: 'copy /bin/run',
  path: '/bin/run',
  mount: '/',
  source: '/bin/run',
  destination: '/tools/run',
  destinationMount: '/',
  destinationExists: false,
  overwrite: false,
  fileBytes: 14,
  symlink: { target: '/bin/deploy.sh', targetAfter: '/tools/deploy.sh' },
} as ApprovalPayload;
const writeThrough = {
  type: 'write',
  description: 'write /notes.md',
  path: '/notes.md',
  mount: '/',
  content: 'on: push\n',
  contentLines: 1,
  contentBytes: 9,
  preview: 'on: push\n',
  previewTruncated: false,
  fileExists: false,
  existingLines: null,
  existingBytes: null,
  resolved: { path: '/.github/workflows/ci.yml', via: ['/notes.md'] },
} as ApprovalPayload;

describe('links are drawn on every surface', () => {
  it('a delete of a link names the link and its target, never "[empty file]"', () => {
    for (const text of [screen(linkDelete), web(linkDelete), payloadText(request(linkDelete))]) {
      expect(text).not.toContain('empty file');
      expect(text).toContain('/notes.md is a link → /.github/workflows/ci.yml');
      expect(text).toContain('not touched');
    }
  });

  it('a copy of a relative link says the copy is a link and where it will point', () => {
    for (const text of [screen(linkCopy), web(linkCopy), payloadText(request(linkCopy))]) {
      expect(text).toContain('/bin/run is a link → /bin/deploy.sh');
      expect(text).toContain('/tools/run will be a link → /tools/deploy.sh (not /bin/deploy.sh');
    }
  });

  it('a write through a link says where the write goes', () => {
    for (const text of [screen(writeThrough), web(writeThrough), payloadText(request(writeThrough))])
      expect(text).toContain('/notes.md is a link → writes go to /.github/workflows/ci.yml');
  });
});

describe('MCP dialog text survives Markdown', () => {
  const patch = (content: string, path = '/a.md'): ApprovalRequest =>
    request({
      type: 'patch',
      description: 'patch',
      path,
      mount: '/',
      unifiedDiff: `--- a${path}\n+++ b${path}\n@@ -1,2 +1,2 @@\n-${content}\n+${content} changed\n ${'`'.repeat(7)}\n`,
      requestedDiff: '',
      diffLines: 6,
      added: 1,
      removed: 1,
      relocated: false,
      hunks: 1,
      fileExists: true,
      fileLines: 2,
      fileBytes: 10,
    } as ApprovalPayload);

  it('fences the body with more backticks than any run in it; HTML comments stay text', () => {
    const text = payloadText(patch('<!-- hidden -->'));
    expect(fenceFor('a ``````` b')).toBe('````````');
    expect(text).toContain('\n````````text\n');
    expect(text.trimEnd().endsWith('````````')).toBe(true);
    const body = text.slice(text.indexOf('````````text'));
    expect(body).toContain('-<!-- hidden -->');
    expect(body).toMatch(/\+<!-- hidden -->.*changed/);
  });

  it('escapes Markdown and HTML in the title (file names)', () => {
    const first = payloadText(patch('x', '/<img src=x onerror=y>**b**.md')).split('\n')[0]!;
    expect(first).toContain('\\<img src=x onerror=y\\>\\*\\*b\\*\\*.md');
  });
});

describe('pager search line', () => {
  it('shows a pasted escape sequence as tokens, never sends it to the terminal', async () => {
    const tty = fakeTty();
    const reader = new KeyReader(tty.input, { clock: tty.clock, onArm: tty.onPrompt });
    reader.open();
    tty.type('/', '\u001b[200~\u001b]0;pwned\u0007\u001b[2J\u001b[201~', '\r', 'q');
    await runPager({
      keys: reader,
      output: tty.output,
      count: 3,
      line: (i) => `line ${i}`,
      title: 't',
      footer: 'f',
      rows: 10,
      style: plain,
    });
    reader.close();
    expect(tty.text()).not.toContain('\u001b]0;pwned');
    expect(tty.text()).toContain('␛]0;pwned␇');
  });
});
