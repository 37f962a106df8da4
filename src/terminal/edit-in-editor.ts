import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApprovalPayload } from '../approval/payloads.js';

/** Which argument holds the text the user may edit, for payloads that allow it. */
export function editableField(payload: ApprovalPayload): 'content' | 'new_string' | undefined {
  if (payload.type === 'write') return 'content';
  if (payload.type === 'edit') return 'new_string';
  return undefined;
}

/**
 * Opens `text` in the user's editor ($VISUAL, $EDITOR, else vi) and returns the
 * edited text, or undefined if the editor failed. The temp file keeps the
 * target's extension so the editor highlights it.
 */
export function editInEditor(text: string, targetPath: string, editor: string): string | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-approval-edit-'));
  const file = path.join(dir, `proposal${path.extname(targetPath).replace(/[^.\w]/g, '')}`);
  try {
    fs.writeFileSync(file, text);
    const result = spawnSync(`${editor} ${JSON.stringify(file)}`, { stdio: 'inherit', shell: true });
    if (result.status !== 0) return undefined;
    return fs.readFileSync(file, 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
