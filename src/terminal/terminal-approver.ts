import { spawnSync } from 'node:child_process';
import { createTwoFilesPatch } from 'diff';
import { ApprovalAborted } from '../approval/errors.js';
import { SerialQueue } from '../approval/serial-queue.js';
import type {
  ApprovalCallback,
  ApprovalDecision,
  ApprovalMemoryView,
  ApprovalRequest,
  RememberScopeName,
} from '../approval/types.js';
import { allLines, renderDiff } from './diff-view.js';
import { editableField, editInEditor } from './edit-in-editor.js';
import { type KeyInput, KeyReader } from './key-reader.js';
import { readLine } from './line-input.js';
import { runPager } from './pager.js';
import { renderPayload } from './render-payload.js';
import type { Rendered } from './rendered.js';
import { fitWidth, sanitizeLine } from './sanitize.js';
import { colorWanted, createStyle, type Style } from './style.js';

export interface TerminalApproverOptions {
  input?: KeyInput;
  output?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  /** Session memory, for listing and revoking remembered approvals from the prompt. */
  memory?: ApprovalMemoryView;
  /** Body lines: fewer than `inline` shown whole; up to `pager` a preview + [v]iew; more opens the pager. */
  thresholds?: { inline?: number; pager?: number };
  pager?: 'builtin' | 'system';
  /** Default: NO_COLOR / FORCE_COLOR, else whether output is a terminal. */
  color?: boolean;
  /** Default: the terminal's columns, else 80. */
  width?: number;
  /** What to answer when input is not a terminal (default 'deny': fail closed). */
  nonInteractive?: 'deny' | 'approve';
  /** Editor command for [e]dit (default $VISUAL, $EDITOR, else vi). */
  editor?: string;
}

const SCOPES: Array<{ key: string; scope: RememberScopeName; label: (r: ApprovalRequest) => string }> = [
  { key: '1', scope: 'call', label: () => 'this exact call' },
  { key: '2', scope: 'file', label: (r) => `this file (${sanitizeLine(r.payload.path)})` },
  { key: '3', scope: 'mount', label: (r) => `everything under ${sanitizeLine(r.payload.mount)}` },
  { key: '4', scope: 'tool', label: (r) => `every ${r.toolName} call` },
];

/**
 * A blocking terminal approval prompt: shows each request rendered by payload
 * type (coloured diffs, previews, pager for big ones) and asks. One prompt at a
 * time, even when tool calls run in parallel. Without a terminal it fails closed.
 */
export function terminalApprover(options: TerminalApproverOptions = {}): ApprovalCallback {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const style = createStyle(options.color ?? colorWanted(output));
  const inline = options.thresholds?.inline ?? 30;
  const pagerAt = options.thresholds?.pager ?? 100;
  const queue = new SerialQueue();
  // One reader for the approver's lifetime: keys typed ahead are kept for the next prompt.
  const keys = new KeyReader(input);
  // Requests of one burst are numbered "Approval i of n" until the queue drains.
  let pending = 0;
  let shown = 0;
  let burst = 0;

  return (request) => {
    if (!input.isTTY) {
      if (options.nonInteractive === 'approve') return { approved: true };
      return {
        approved: false,
        note: 'Approval needs an interactive terminal, and none is attached (stdin is not a TTY), so this change was not made. Run interactively or configure an approval policy.',
      };
    }
    pending++;
    burst++;
    return queue.run(async () => {
      shown++;
      const position = burst > 1 ? `Approval ${shown} of ${burst}` : '';
      try {
        return await ask(request, position);
      } finally {
        pending--;
        if (pending === 0) shown = burst = 0;
      }
    });
  };

  async function ask(request: ApprovalRequest, position: string): Promise<ApprovalDecision> {
    const width = Math.max(40, options.width ?? output.columns ?? 80);
    const rows = Math.max(10, output.rows ?? 24);
    // The body is printed behind a two-column frame ("│ ").
    const rendered = renderPayload(request.payload, style, width - 2, request.args);
    keys.open();
    const print = (s = '') => output.write(`${s}\n`);
    const choices = choiceLine(request, style);
    const pager = async (r: Rendered) => {
      if (options.pager === 'system') return systemPager(r);
      await runPager({
        keys,
        output,
        count: r.body.count,
        line: (i) => r.body.line(i),
        title: r.title,
        footer: choices,
        rows,
        style,
      });
    };
    try {
      if (position) print(style.dim(position));
      printHeader(rendered, print, width, style);
      if (rendered.body.count > pagerAt) await pager(rendered);
      printBody(rendered, print, inline, pagerAt, style);
      for (;;) {
        print(choices);
        const key = await keys.next();
        if (key === 'y' || key === 'enter') return { approved: true };
        if (key === 'q' || key === 'ctrl-c') throw new ApprovalAborted();
        if (key === 'n' || key === 'escape') {
          const note = await readLine(
            keys,
            output,
            style.yellow('Tell the agent what to do differently (Enter to skip): '),
          );
          return note ? { approved: false, note } : { approved: false };
        }
        if (key === 'a') {
          const scope = await pickScope(keys, request, print, style);
          if (scope) return { approved: true, remember: { scope } };
        } else if (key === 'v') {
          await pager(rendered);
        } else if (key === 'e' && editableField(request.payload)) {
          const edited = await editProposal(request, print, width);
          if (edited) return edited;
        } else if (key === 'l' && options.memory) {
          await manageMemory(options.memory, keys, print, style);
        }
      }
    } finally {
      keys.close();
      output.write('\u001b[?25h');
    }
  }

  function systemPager(r: Rendered): void {
    const [cmd, ...args] = (process.env.PAGER || 'less -R').split(' ');
    spawnSync(cmd!, args, {
      input: [r.title, ...allLines(r.body)].join('\n'),
      stdio: ['pipe', 'inherit', 'inherit'],
    });
  }

  async function editProposal(
    request: ApprovalRequest,
    print: (s?: string) => void,
    width: number,
  ): Promise<ApprovalDecision | undefined> {
    const field = editableField(request.payload)!;
    const args = request.args as Record<string, unknown>;
    const proposal = String(args[field] ?? '');
    keys.close(); // the editor owns the terminal meanwhile
    const edited = editInEditor(
      proposal,
      request.payload.path,
      options.editor ?? process.env.VISUAL ?? process.env.EDITOR ?? 'vi',
    );
    keys.open();
    if (edited === undefined || edited === proposal) {
      print(
        style.dim(
          edited === undefined ? 'The editor failed; nothing changed.' : 'No changes made in the editor.',
        ),
      );
      return undefined;
    }
    print(style.bold('Your changes to the proposal:'));
    for (const line of renderDiff(
      createTwoFilesPatch('proposal', 'yours', proposal, edited, '', '', { context: 2 }),
      style,
      width,
    ))
      print(line);
    print(`Apply ${style.bold('your')} version? [y] yes  [n] back to the proposal`);
    const key = await keys.next();
    if (key === 'ctrl-c') throw new ApprovalAborted();
    if (key !== 'y' && key !== 'enter') return undefined;
    return {
      approved: true,
      overrideArgs: { ...args, [field]: edited },
      note: `The user edited ${field} in their editor before approving.`,
    };
  }
}

/** The choices, on two lines that fit 80 columns. */
function choiceLine(request: ApprovalRequest, style: Style): string {
  const first = [
    `${style.green('[y]')} yes`,
    `${style.green('[a]')} yes, and don't ask again…`,
    `${style.red('[n]')} no, and say what to do instead`,
  ];
  const second = [`${style.cyan('[v]')} view all`];
  if (editableField(request.payload)) second.push(`${style.cyan('[e]')} edit first`);
  second.push(`${style.dim('[l]')} remembered`, `${style.dim('[q]')} quit the run`);
  return `${first.join('  ')}\n${second.join('  ')}`;
}

function printHeader(r: Rendered, print: (s?: string) => void, width: number, style: Style): void {
  print(style.bold(`┌─ ${r.title}`));
  for (const w of r.warnings) print(style.yellow(fitWidth(w, width)));
}

function printBody(
  r: Rendered,
  print: (s?: string) => void,
  inline: number,
  pagerAt: number,
  style: Style,
): void {
  const n = r.body.count;
  const shown = n < inline ? n : Math.min(n, n <= pagerAt ? inline - 10 : 10);
  for (let i = 0; i < shown; i++) print(`│ ${r.body.line(i)}`);
  if (shown < n)
    print(
      style.dim(
        `│ … ${n - shown} more line${n - shown === 1 ? '' : 's'} not shown — press v to view all ${n}`,
      ),
    );
  print(style.bold('└─'));
}

async function pickScope(
  keys: KeyReader,
  request: ApprovalRequest,
  print: (s?: string) => void,
  style: Style,
) {
  print(style.bold("Don't ask again for:"));
  for (const s of SCOPES) print(`  [${s.key}] ${s.label(request)}`);
  print(style.dim('  [Esc] back'));
  for (;;) {
    const key = await keys.next();
    if (key === 'ctrl-c') throw new ApprovalAborted();
    if (key === 'escape') return undefined;
    const hit = SCOPES.find((s) => s.key === key);
    if (hit) return hit.scope;
  }
}

async function manageMemory(
  memory: ApprovalMemoryView,
  keys: KeyReader,
  print: (s?: string) => void,
  style: Style,
) {
  const entries = memory.list();
  if (entries.length === 0) {
    print(style.dim('Nothing is remembered in this session.'));
    return;
  }
  print(style.bold('Remembered this session (press its number to revoke, Esc to go back):'));
  for (const [i, e] of entries.slice(0, 9).entries()) {
    print(`  [${i + 1}] ${e.approved ? 'allow' : 'deny'}: ${sanitizeLine(e.label)}`);
  }
  const key = await keys.next();
  if (key === 'ctrl-c') throw new ApprovalAborted();
  const entry = entries[Number(key) - 1];
  if (entry && memory.revoke(entry.id)) print(style.yellow(`Revoked: ${sanitizeLine(entry.label)}`));
}
