/**
 * The approval card in Chromium: a change must never look like no change. For whitespace-only and
 * invisible-character edits (payloads computed by the real tools), the removed and added rows must
 * differ in what a person sees: different rendered text, or a highlighted mark with a visible width.
 */
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { PayloadView, SandboxApprovalStyles } from '../../src/react/index.js';
import { project } from '../tools/fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const has = fs.existsSync(CHROMIUM);

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

const CASES: Array<[string, string, string]> = [
  ['trailing space added', 'a = 1;\n', 'a = 1; \n'],
  ['tab → spaces', 'x\ty\n', 'x   y\n'],
  ['LF → CRLF on one line', 'a\nb\n', 'a\r\nb\n'],
  ['space → NBSP', 'a b\n', 'a\u00a0b\n'],
  ['space → ideographic space', 'a b\n', 'a\u3000b\n'],
  ['two spaces → one', 'a  b\n', 'a b\n'],
  ['soft hyphen inserted', 'ab\n', 'a\u00adb\n'],
  ['word joiner inserted', 'ab\n', 'a\u2060b\n'],
  ['Hangul filler inserted', 'ab\n', 'a\u3164b\n'],
  ['variation selector inserted', 'ab\n', 'a\ufe0fb\n'],
  ['combining grapheme joiner', 'ab\n', 'a\u034fb\n'],
  ['tag character', 'ab\n', 'a\u{e0041}b\n'],
  ['Mongolian vowel separator', 'ab\n', 'a\u180eb\n'],
  ['Braille blank', 'a b\n', 'a\u2800b\n'],
  ['trailing tab', 'a\n', 'a\t\n'],
  ['unassigned code point', 'ab\n', 'a\u{50000}b\n'],
];

describe.skipIf(!has)('card in Chromium: whitespace-only / invisible changes are visibly changes', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('each edit/overwrite shows a visible difference between the removed and added line', async () => {
    const views: string[] = [];
    for (const [name, before, after] of CASES) {
      const edit = await payloadOf({ 'f.txt': before }, 'write_file', { path: '/f.txt', content: after });
      views.push(
        renderToStaticMarkup(
          createElement('section', { 'data-case': name }, createElement(PayloadView, { payload: edit })),
        ),
      );
    }
    const html = renderToStaticMarkup(createElement(Fragment, null, createElement(SandboxApprovalStyles)));
    const page = await browser.newPage();
    await page.setContent(`<!doctype html><html><body>${html}${views.join('')}</body></html>`);
    const result = await page.evaluate(() => {
      const out: Record<string, string> = {};
      for (const sec of Array.from(document.querySelectorAll('section[data-case]'))) {
        const name = sec.getAttribute('data-case')!;
        const del = Array.from(sec.querySelectorAll('.sa-del .sa-text'))
          .map((e) => (e as HTMLElement).innerText)
          .join('\n');
        const add = Array.from(sec.querySelectorAll('.sa-add .sa-text'))
          .map((e) => (e as HTMLElement).innerText)
          .join('\n');
        const marks = Array.from(sec.querySelectorAll('mark')).filter((m) => {
          const r = m.getBoundingClientRect();
          const bg = getComputedStyle(m).backgroundColor;
          return r.width >= 2 && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent';
        });
        const textDiffers = del.replace(/\s+$/gm, '') !== add.replace(/\s+$/gm, '');
        const rows = sec.querySelectorAll('.sa-del, .sa-add').length;
        out[name] =
          textDiffers || marks.length > 0
            ? 'visible'
            : `INVISIBLE (rows ${rows}, del ${JSON.stringify(del)} add ${JSON.stringify(add)}, whole ${JSON.stringify((sec as HTMLElement).innerText.slice(0, 200))})`;
      }
      return out;
    });
    await page.close();
    const invisible = Object.entries(result).filter(([, v]) => v !== 'visible');
    expect(invisible).toEqual([]);
  }, 60_000);
});
