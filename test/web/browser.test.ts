import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CALLS } from '../../examples/web/offline-model.js';
import { startWebDemo } from '../../examples/web/server.js';

/**
 * The web flow in a real browser: Debian's Chromium driven by playwright-core
 * (never a downloaded browser), the demo server with its offline model, a
 * fresh toolset per HTTP request. Skipped when /usr/bin/chromium is missing
 * (.ci/run installs it).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SAMPLE = path.resolve(import.meta.dirname, '../../examples/sample-project');
// SAVE_SCREENSHOTS=1 refreshes docs/web-*.png; otherwise screenshots go to a temp dir.
const SHOTS = process.env.SAVE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs')
  : fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-shots-'));

describe.skipIf(!fs.existsSync(CHROMIUM))('browser approvals (Chromium)', () => {
  let demo: Awaited<ReturnType<typeof startWebDemo>>;
  let browser: Browser;
  let page: Page;
  const file = (rel: string) => path.join(demo.workspaceDir, rel);

  beforeAll(async () => {
    demo = await startWebDemo({ workspaceDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-web-')) });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    if (demo) fs.rmSync(demo.workspaceDir, { recursive: true, force: true });
    if (!process.env.SAVE_SCREENSHOTS) fs.rmSync(SHOTS, { recursive: true, force: true });
  });

  beforeEach(async () => {
    // Every test starts from the sample project and a fresh page (a new chat).
    fs.cpSync(SAMPLE, demo.workspaceDir, { recursive: true, force: true });
    for (const extra of ['src/notes.md', 'src/formatting.ts']) fs.rmSync(file(extra), { force: true });
    await page?.close();
    page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(demo.url);
    await page.getByLabel('Message').waitFor();
    expect(errors).toEqual([]);
  });

  async function ask(text: string) {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.getByTestId('sandbox-approval');
    await card.waitFor();
    return card;
  }

  const lastAssistantText = () => page.getByTestId('assistant-text').last();

  it('approve a diff: the page shows the word-level diff, the file gets exactly that change', async () => {
    const before = fs.readFileSync(file('src/todo-list.ts'), 'utf8');
    const card = await ask('edit the summary');
    await expect(card.locator('.sa-title').textContent()).resolves.toContain(
      'Edit: /src/todo-list.ts (line 31)',
    );
    await expect(card.locator('mark.sa-word-add').allTextContents()).resolves.toEqual([' of ']);
    await expect(card.locator('.sa-row.sa-del .sa-no').first().textContent()).resolves.toContain('31');
    await card.screenshot({ path: path.join(SHOTS, 'web-approval.png') });

    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('sandbox-tool-status').filter({ hasText: '✓ edit_file' }).waitFor();
    await expect(lastAssistantText().textContent()).resolves.toBe('Done: edit_file succeeded.');
    const { old_string, new_string } = DEMO_CALLS.edit!.input as Record<string, string>;
    expect(fs.readFileSync(file('src/todo-list.ts'), 'utf8')).toBe(before.replace(old_string!, new_string!));
  });

  it('deny with a note (keyboard only): the model quotes it, the file is untouched', async () => {
    const before = fs.readFileSync(file('src/format.ts'));
    const card = await ask('overwrite format.ts');
    await expect(card.locator('.sa-warning').textContent()).resolves.toMatch(
      /^⚠ This will overwrite an existing file \(was \d+ lines?, now 6 lines\)\.$/,
    );
    await card.screenshot({ path: path.join(SHOTS, 'web-overwrite.png') });
    // The card has focus: d opens the note, Enter sends the denial.
    await page.keyboard.press('d');
    await page.keyboard.type('keep the bullet format, no ids');
    await page.keyboard.press('Enter');
    await page.getByText('You denied write_file and said: "keep the bullet format, no ids"').waitFor();
    await expect(page.getByTestId('sandbox-tool-status').last().textContent()).resolves.toContain(
      'keep the bullet format, no ids',
    );
    expect(fs.readFileSync(file('src/format.ts')).equals(before)).toBe(true);
  });

  it('a new file: numbered preview; approved with the keyboard (a)', async () => {
    const card = await ask('create the notes');
    await expect(card.locator('.sa-title').textContent()).resolves.toContain(
      'Write: /src/notes.md (4 lines, 60 B, new file)',
    );
    await expect(card.locator('.sa-preview .sa-no').allTextContents()).resolves.toEqual([
      '  1',
      '  2',
      '  3',
      '  4',
    ]);
    await page.keyboard.press('a');
    await page.getByTestId('sandbox-tool-status').filter({ hasText: '✓ write_file /src/notes.md' }).waitFor();
    const { content } = DEMO_CALLS.create!.input as { content: string };
    expect(fs.readFileSync(file('src/notes.md'), 'utf8')).toBe(content);
  });

  it('the file changes between showing and approving: the page shows stale_approval, file untouched', async () => {
    const card = await ask('edit the summary');
    // Someone else edits another line of the same file while the person looks at the diff.
    const changed = `${fs.readFileSync(file('src/todo-list.ts'), 'utf8')}// edited by someone else\n`;
    fs.writeFileSync(file('src/todo-list.ts'), changed);
    await card.getByRole('button', { name: 'Approve' }).click();
    const status = page.locator('[data-error-code="stale_approval"]');
    await status.waitFor();
    await expect(status.textContent()).resolves.toMatch(/^stale_approval: /);
    await status.screenshot({ path: path.join(SHOTS, 'web-stale.png') });
    await expect(lastAssistantText().textContent()).resolves.toContain('was not applied (stale_approval)');
    expect(fs.readFileSync(file('src/todo-list.ts'), 'utf8')).toBe(changed);
  });

  const composerFocused = () =>
    page.evaluate(
      () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName,
    );

  it('a pending card is never orphaned: the composer waits until it is answered, then the call runs', async () => {
    const before = fs.readFileSync(file('src/todo-list.ts'), 'utf8');
    const card = await ask('edit the summary');
    await page.getByTestId('composer-waiting').waitFor();
    await expect(page.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
    // Enter in the composer sends nothing while the approval waits.
    await page.getByLabel('Message').fill('never mind, do something else');
    await page.getByLabel('Message').press('Enter');
    await expect(page.locator('[data-role="user"]').count()).resolves.toBe(1);
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('sandbox-tool-status').filter({ hasText: '✓ edit_file' }).waitFor();
    expect(fs.readFileSync(file('src/todo-list.ts'), 'utf8')).not.toBe(before);
    await page.getByTestId('composer-waiting').waitFor({ state: 'detached' });
    // Send also waits for the agent's turn to end (busy), which may come a moment later.
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
  });

  it('after approving with the keyboard, focus is on the composer (not <body>)', async () => {
    await ask('create the notes');
    await page.keyboard.press('a');
    await page.getByTestId('sandbox-tool-status').filter({ hasText: '✓ write_file' }).waitFor();
    await expect(composerFocused()).resolves.toBe('Message');
  });

  it('after denying with a note, focus is on the composer', async () => {
    await ask('overwrite format.ts');
    await page.keyboard.press('d');
    await page.keyboard.type('no');
    await page.keyboard.press('Enter');
    await page.getByTestId('sandbox-tool-status').filter({ hasText: 'Denied' }).waitFor();
    await expect(composerFocused()).resolves.toBe('Message');
  });
});
