import { ApprovalAborted } from '../approval/errors.js';
import type { ApprovalMemoryView, ApprovalRequest, RememberScopeName } from '../contract/approval-types.js';
import type { ApprovalPayload } from '../contract/payloads.js';
import { charsFitting, displayWidth } from '../text/display-width.js';
import { editableField } from './edit-in-editor.js';
import type { KeyReader } from './key-reader.js';
import type { Rendered } from './rendered.js';
import { sanitizeLine } from './sanitize.js';
import { type Style, stripAnsi, visibleLength } from './style.js';
import { fitTitle } from './title-fit.js';

export type Print = (s?: string) => void;

interface ScopeChoice {
  key: string;
  scope: RememberScopeName;
  label: (r: ApprovalRequest) => string;
  /** Whether the scope can be keyed for this request (a call without a path has no file scope). */
  applies: (r: ApprovalRequest) => boolean;
}

const SCOPES: ScopeChoice[] = [
  { key: '1', scope: 'call', label: () => 'this exact call', applies: () => true },
  {
    key: '2',
    scope: 'file',
    label: (r) => `this file (${sanitizeLine(r.payload.path)})`,
    applies: (r) => r.payload.path !== '',
  },
  {
    key: '3',
    scope: 'mount',
    label: (r) => `everything under ${sanitizeLine(r.payload.mount)}`,
    applies: (r) => r.payload.mount !== '',
  },
  {
    key: '4',
    scope: 'tool',
    label: (r) => `every ${sanitizeLine(r.toolName)} call`,
    applies: () => true,
  },
];

/** The question above the choices, by payload type. */
export function questionFor(request: ApprovalRequest): string {
  const p = request.payload as ApprovalPayload;
  switch (p.type) {
    case 'patch':
      return 'Apply this patch?';
    case 'edit':
    case 'lines':
      return 'Apply this edit?';
    case 'write':
      return p.fileExists ? 'Overwrite this file?' : 'Create this file?';
    case 'read':
      return 'Allow reading this file?';
    case 'delete':
      return 'Delete this file?';
    case 'move':
      return 'Move this file?';
    case 'copy':
      return 'Copy this file?';
    case 'list':
      return 'Allow listing these files?';
    default:
      return `Allow this ${sanitizeLine(request.toolName)} call?`;
  }
}

/** The choices, on two lines that fit 80 columns. */
export function choiceLine(request: ApprovalRequest, style: Style, withMemory: boolean): string {
  const first = [
    `${style.green('[y]')} yes`,
    `${style.green('[a]')} yes, and don't ask again…`,
    `${style.red('[n]')} no, and say what to do instead`,
  ];
  const second = [`${style.cyan('[v]')} view all`];
  if (editableField(request.payload)) second.push(`${style.cyan('[e]')} edit first`);
  if (withMemory) second.push(`${style.dim('[l]')} remembered`);
  second.push(`${style.dim('[q]')} quit the run`);
  return `${first.join('  ')}\n${second.join('  ')}`;
}

/** Columns the frame takes left of the body ("│ ") plus the last column, which stays empty. */
export const FRAME_INSET = displayWidth('│ ') + 1;

/** A (sanitised, unstyled) line cut into pieces of at most `columns` columns. */
function wrapColumns(line: string, columns: number): string[] {
  const chars = [...line];
  const parts: string[] = [];
  for (let i = 0; i < chars.length; ) {
    let n = Math.max(1, charsFitting(chars, columns, i));
    // Break after a space when there is one in the second half of the piece.
    if (i + n < chars.length) {
      const space = chars.lastIndexOf(' ', i + n - 1);
      if (space >= i + n / 2) n = space - i + 1;
    }
    parts.push(chars.slice(i, i + n).join(''));
    i += n;
  }
  return parts.length ? parts : [''];
}

/** The pager's one-line footer: how to get back to the choices. */
export function pagerFooter(style: Style): string {
  return `${style.dim('q: back to the question')}  ${style.green('[y]')} yes  ${style.red('[n]')} no`;
}

/** `┌─ title ───…`: the frame's top rule with the title, cut to the width if it must be. */
export function printHeader(r: Rendered, print: Print, width: number, style: Style): void {
  const room = width - 2 - displayWidth('┌─ '); // "┌─ " + title + " " + rule, off the last column
  const title = fitTitle(r, room);
  const rule = '─'.repeat(Math.max(0, Math.floor((room - visibleLength(title)) / displayWidth('─'))));
  print(`${style.bold(`┌─ ${title}`)} ${style.dim(rule)}`);
  // Warnings sit inside the frame and wrap rather than being cut: a link's target or a
  // look-alike word must never be hidden behind a "…+N".
  for (const w of r.warnings)
    for (const part of wrapColumns(w, width - FRAME_INSET)) print(`${style.dim('│')} ${style.yellow(part)}`);
}

/** Preview size: whole under `inline`; a preview up to `pagerAt`; a short head above (the pager showed it all). */
export function previewSize(count: number, inline: number, pagerAt: number): number {
  if (count < inline) return count;
  const preview = Math.max(1, Math.min(20, inline - 1));
  return Math.min(count, count <= pagerAt ? preview : Math.min(10, preview));
}

export function printBody(r: Rendered, print: Print, shown: number, width: number, style: Style): void {
  const n = r.body.count;
  const bar = style.dim('│');
  const room = width - FRAME_INSET;
  for (let i = 0; i < shown; i++) {
    const line = r.body.line(i);
    // Body lines are fitted by their renderer; a note that is not (links, moves) wraps, never overflows.
    if (visibleLength(line) <= room) print(`${bar} ${line}`);
    else for (const part of wrapColumns(stripAnsi(line), room)) print(`${bar} ${part}`);
  }
  if (shown < n) {
    const hidden = n - shown;
    print(
      style.dim(
        `│ … ${hidden.toLocaleString('en')} more line${hidden === 1 ? '' : 's'} not shown — press v to view all ${n.toLocaleString('en')}`,
      ),
    );
  }
  print(
    style.dim(`└${'─'.repeat(Math.max(0, Math.floor((width - 1 - displayWidth('└')) / displayWidth('─'))))}`),
  );
}

export async function pickScope(
  keys: KeyReader,
  request: ApprovalRequest,
  print: Print,
  style: Style,
): Promise<RememberScopeName | undefined> {
  const offered = SCOPES.filter((s) => s.applies(request));
  print(style.bold("Don't ask again for:"));
  for (const s of offered) print(`  [${s.key}] ${s.label(request)}`);
  print(style.dim('  [Esc] back'));
  await keys.arm();
  for (;;) {
    const key = await keys.next();
    if (key === 'ctrl-c') throw new ApprovalAborted();
    if (key === 'escape') return undefined;
    const hit = offered.find((s) => s.key === key);
    if (hit) return hit.scope;
  }
}

export async function manageMemory(
  memory: ApprovalMemoryView,
  keys: KeyReader,
  print: Print,
  style: Style,
): Promise<void> {
  const entries = memory.list();
  if (entries.length === 0) {
    print(style.dim('Nothing is remembered in this session.'));
    return;
  }
  print(style.bold('Remembered this session (press its number to revoke, Esc to go back):'));
  for (const [i, e] of entries.slice(0, 9).entries()) {
    print(`  [${i + 1}] ${e.approved ? 'allow' : 'deny'}: ${sanitizeLine(e.label)}`);
  }
  if (entries.length > 9) print(style.dim(`  … and ${entries.length - 9} more (revoke some to see them)`));
  await keys.arm();
  const key = await keys.next();
  if (key === 'ctrl-c') throw new ApprovalAborted();
  const entry = /^[1-9]$/.test(key) ? entries[Number(key) - 1] : undefined;
  if (entry && memory.revoke(entry.id)) print(style.yellow(`Revoked: ${sanitizeLine(entry.label)}`));
}
