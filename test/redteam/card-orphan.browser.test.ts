/**
 * The demo (examples/web, a fresh toolset per HTTP request) in Chromium: a card must never be left
 * orphaned "running…", and focus returns to the composer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebDemo } from '../../examples/web/server.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SAMPLE = path.resolve(import.meta.dirname, '../../examples/sample-project');

describe.skipIf(!fs.existsSync(CHROMIUM))('cards never orphaned (Chromium)', () => {
  let demo: Awaited<ReturnType<typeof startWebDemo>>;
  let browser: Browser;
  let page: Page;
  const file = (rel: string) => path.join(demo.workspaceDir, rel);

  beforeAll(async () => {
    demo = await startWebDemo({ workspaceDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-rtweb-')) });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    if (demo) fs.rmSync(demo.workspaceDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    fs.cpSync(SAMPLE, demo.workspaceDir, { recursive: true, force: true });
    for (const extra of ['src/notes.md', 'src/formatting.ts']) fs.rmSync(file(extra), { force: true });
    await page?.close();
    page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(demo.url);
    await page.getByLabel('Message').waitFor();
  });

  async function ask(text: string) {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.getByTestId('sandbox-approval');
    await card.waitFor();
    return card;
  }

  it('request 2 fails (network): the card says it did not run, the composer waits, Retry runs it once', async () => {
    const before = fs.readFileSync(file('src/todo-list.ts'), 'utf8');
    await ask('edit the summary');
    await page.route('**/api/chat', (route) => route.abort('connectionreset'));
    await page.getByTestId('sandbox-approval').getByRole('button', { name: 'Approve' }).click();
    const notRun = page.locator('[data-error-code="not_run"]');
    await notRun.waitFor();
    const body = await page.locator('body').innerText();
    expect(body).not.toMatch(/running…/);
    expect(fs.readFileSync(file('src/todo-list.ts'), 'utf8')).toBe(before);
    // No new message past a dangling approved call: the composer waits for the retry.
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(false);
    await page.unroute('**/api/chat');
    await notRun.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('sandbox-tool-status').filter({ hasText: '✓ edit_file' }).waitFor();
    expect(fs.readFileSync(file('src/todo-list.ts'), 'utf8')).not.toBe(before);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    // The history is whole again: a later message works.
    await page.getByLabel('Message').fill('hello again, create the notes');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('sandbox-approval').waitFor();
    const after = await page.locator('body').innerText();
    expect(after).not.toMatch(/Error: /);
    expect(after).not.toMatch(/running…/);
  }, 60_000);

  it('request 2 fails (HTTP 500): the card does not stay "running…" forever', async () => {
    await ask('delete format.ts');
    await page.route('**/api/chat', (route) => route.fulfill({ status: 500, body: 'boom' }));
    await page.getByTestId('sandbox-approval').getByRole('button', { name: 'Approve' }).click();
    await page.locator('[data-error-code="not_run"]').waitFor();
    expect(fs.existsSync(file('src/format.ts'))).toBe(true);
    expect(await page.locator('body').innerText()).not.toMatch(/running…/);
  }, 60_000);

  it('double activation (a, a, Enter, click) sends one answer: applied once, no stuck card, focus on composer', async () => {
    const card = await ask('create the notes');
    await page.keyboard.press('a');
    await page.keyboard.press('a');
    await page.keyboard.press('Enter');
    await card
      .getByRole('button', { name: 'Approve' })
      .click({ timeout: 500 })
      .catch(() => undefined);
    await page.getByTestId('sandbox-tool-status').filter({ hasText: '✓ write_file' }).waitFor();
    await page.waitForTimeout(1000);
    const body = await page.locator('body').innerText();
    expect(body).not.toMatch(/running…/);
    expect(body).not.toMatch(/approval_blocked/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
  }, 60_000);

  it('delete approved after the file was replaced by whitespace-only different content: stale_approval, file kept', async () => {
    await ask('delete format.ts');
    const content = fs.readFileSync(file('src/format.ts'), 'utf8');
    fs.writeFileSync(file('src/format.ts'), `${content} `);
    await page.getByTestId('sandbox-approval').getByRole('button', { name: 'Approve' }).click();
    await page.locator('[data-error-code="stale_approval"]').waitFor();
    expect(fs.readFileSync(file('src/format.ts'), 'utf8')).toBe(`${content} `);
  }, 60_000);
});
