import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApprovalPayload } from '../contract/payloads.js';

/** Which argument holds the text the user may edit, for payloads that allow it. */
export function editableField(payload: ApprovalPayload): 'content' | 'new_string' | undefined {
  if (payload.type === 'write') return 'content';
  if (payload.type === 'edit') return 'new_string';
  return undefined;
}

/**
 * Editors add a final newline when saving (vi, nano): if the proposal had none,
 * that one newline is not the user's edit (it would add a line break to a
 * new_string meant to end mid-line).
 */
export function dropAddedFinalNewline(proposal: string, edited: string): string {
  if (proposal.endsWith('\n')) return edited;
  if (edited.endsWith('\r\n') && !proposal.endsWith('\r')) return edited.slice(0, -2);
  if (edited.endsWith('\n')) return edited.slice(0, -1);
  return edited;
}

/**
 * Opens `text` in the user's editor ($VISUAL, $EDITOR, else vi) and returns the
 * edited text, or undefined if the editor failed. The temp file (private to the
 * user) keeps the target's extension so the editor highlights it.
 */
export function editInEditor(text: string, targetPath: string, editor: string): string | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-approval-edit-'));
  const file = path.join(dir, `proposal${path.extname(targetPath).replace(/[^.\w]/g, '')}`);
  try {
    fs.writeFileSync(file, text, { mode: 0o600 });
    const result = spawnSync(`${editor} ${JSON.stringify(file)}`, { stdio: 'inherit', shell: true });
    if (result.status !== 0) return undefined;
    return dropAddedFinalNewline(text, fs.readFileSync(file, 'utf8'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
