import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sandboxApprovalCss } from '../../src/react/index.js';
import { capture, cardHtml, mkdir } from './screen-helpers.js';

// Promise: "what the person is shown is what runs". No bidi CONTROL characters here (those are
// tokenised): only strong right-to-left letters, which the Unicode bidi algorithm uses to reorder the
// neutral characters between them. In Chromium, is the + row drawn in the order the file will hold?
const css = typeof sandboxApprovalCss === 'string' ? sandboxApprovalCss : '';

describe('React card in Chromium: characters are drawn in file order', () => {
  it('`x = "א" + "ב"` is not drawn as `x = "ב" + "א"`', async () => {
    const dir = mkdir({ 'f.ts': 'x = 0;\n' });
    const req = await capture(dir, 'write_file', { path: '/f.ts', content: 'x = "א" + "ב";\n' });
    const html = cardHtml(req);
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      await page.setContent(`<style>${css}</style>${html}`);
      // x positions of א and ב in the added row, as drawn
      const pos = await page.evaluate(() => {
        const row = document.querySelector('.sa-row.sa-add .sa-text, .sa-row.sa-add') as HTMLElement;
        const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
        const out: Record<string, number> = {};
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const t = n.textContent ?? '';
          for (let i = 0; i < t.length; i++) {
            if (t[i] === 'א' || t[i] === 'ב') {
              const r = document.createRange();
              r.setStart(n, i);
              r.setEnd(n, i + 1);
              out[t[i]!] = r.getBoundingClientRect().left;
            }
          }
        }
        return out;
      });
      // in the file א comes first: it must be drawn left of ב
      expect(pos['א']).toBeLessThan(pos['ב']!);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
