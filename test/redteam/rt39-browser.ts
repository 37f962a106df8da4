// Helper of the rt39 Chromium tests: renders an approval payload with <PayloadView> in Debian's Chromium
// (playwright-core, never a downloaded browser) and reports the ms from the page script's start to React's
// first commit, as measured in the page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import type { ApprovalPayload } from '../../src/contract/payloads.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function openBrowser(): Promise<{
  browser: Browser;
  pageDir: string;
  close: () => Promise<void>;
}> {
  const pageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt39-page-'));
  await build({
    entryPoints: [path.join(import.meta.dirname, 'rt39-payload-page.tsx')],
    bundle: true,
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile: path.join(pageDir, 'page.js'),
    logLevel: 'silent',
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  return {
    browser,
    pageDir,
    close: async () => {
      await browser.close();
      fs.rmSync(pageDir, { recursive: true, force: true });
    },
  };
}

/** Renders one payload; returns the in-page ms to first commit (Infinity past `budgetMs`) and the row count. */
export async function renderPayload(
  env: { browser: Browser; pageDir: string },
  payload: ApprovalPayload,
  budgetMs: number,
): Promise<{ ms: number; rows: number; errors: string[] }> {
  const name = `p${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(
    path.join(env.pageDir, `${name}.js`),
    `window.__PAYLOAD__=${JSON.stringify(payload).replace(/</g, '\\u003c')}`,
  );
  const html = path.join(env.pageDir, `${name}.html`);
  fs.writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><body><div id="root"></div><script src="${name}.js"></script><script src="page.js"></script>`,
  );
  const page = await env.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`file://${html}`, { waitUntil: 'commit' });
    try {
      await page.waitForFunction('window.__RENDERED__ !== undefined', null, {
        timeout: budgetMs,
        polling: 100,
      });
    } catch {
      return { ms: Number.POSITIVE_INFINITY, rows: -1, errors };
    }
    const ms = (await page.evaluate('window.__RENDERED__')) as number;
    const rows = (await page.evaluate('document.querySelectorAll(".sa-row").length')) as number;
    return { ms, rows, errors };
  } finally {
    await page.close().catch(() => {});
  }
}
