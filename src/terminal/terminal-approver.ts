import { createTwoFilesPatch } from 'diff';
import { ApprovalAborted } from '../approval/errors.js';
import { SerialQueue } from '../approval/serial-queue.js';
import type {
  ApprovalCallback,
  ApprovalDecision,
  ApprovalMemoryView,
  ApprovalRequest,
} from '../approval/types.js';
import { allLines, diffLineSource, diffStats } from './diff-view.js';
import { editableField, editInEditor } from './edit-in-editor.js';
import { type Clock, type KeyInput, KeyReader } from './key-reader.js';
import { readLine } from './line-input.js';
import { runPager } from './pager.js';
import {
  choiceLine,
  manageMemory,
  type Print,
  pickScope,
  previewSize,
  printBody,
  printHeader,
  questionFor,
} from './prompt-parts.js';
import { renderPayload } from './render-payload.js';
import type { Rendered } from './rendered.js';
import { sanitizeLine } from './sanitize.js';
import { colorWanted, createStyle } from './style.js';
import { runSystemPager } from './system-pager.js';

export interface TerminalApproverOptions {
  input?: KeyInput;
  output?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  /** Session memory, for listing and revoking remembered approvals from the prompt. */
  memory?: ApprovalMemoryView;
  /** Body lines: fewer than `inline` shown whole; up to `pager` a preview + [v]iew; more opens the pager. */
  thresholds?: { inline?: number; pager?: number };
  /** 'builtin' (default) needs no `less`; 'system' pipes through $PAGER (default `less -R`), falling back to builtin. */
  pager?: 'builtin' | 'system';
  /** Default: NO_COLOR / FORCE_COLOR, else whether output is a terminal. */
  color?: boolean;
  /** Default: the terminal's columns, else 80. */
  width?: number;
  /** What to answer when input is not a terminal (default 'deny': fail closed). */
  nonInteractive?: 'deny' | 'approve';
  /** Editor command for [e]dit (default $VISUAL, $EDITOR, else vi). */
  editor?: string;
  /**
   * How long (ms, default 350) a prompt must be on screen before a key counts
   * for it. Keys typed earlier (type-ahead, while the agent was busy, the second
   * `y` of `yy`) are discarded, never carried to the next prompt.
   */
  armDelayMs?: number;
  /** Time source for the arming delay (tests inject one). */
  clock?: Clock;
  /** Called each time a prompt (or the pager) is on screen and reading keys, e.g. to ring a bell. */
  onPrompt?: () => void;
}

export const NON_TTY_NOTE =
  'Approval needs an interactive terminal, and none is attached (stdin is not a TTY), so this change was not made. Run interactively or configure an approval policy.';

/**
 * A blocking terminal approval prompt: shows each request rendered by payload
 * type (coloured diffs, previews, pager for big ones) and asks. One prompt at a
 * time, even when tool calls run in parallel; quitting also drops the prompts
 * still waiting. Without a terminal it fails closed.
 */
export function terminalApprover(options: TerminalApproverOptions = {}): ApprovalCallback {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const style = createStyle(options.color ?? colorWanted(output));
  const inline = options.thresholds?.inline ?? 30;
  const pagerAt = options.thresholds?.pager ?? 100;
  const queue = new SerialQueue();
  // One reader for the approver's lifetime; each prompt arms it, discarding keys typed before it showed.
  const keys = new KeyReader(input, {
    output,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.armDelayMs !== undefined ? { armDelayMs: options.armDelayMs } : {}),
    ...(options.onPrompt ? { onArm: options.onPrompt } : {}),
  });
  // Requests of one burst are numbered "Approval i of n" until the queue drains.
  let pending = 0;
  let shown = 0;
  let burst = 0;
  let aborts = 0;

  return (request) => {
    if (!input.isTTY) {
      if (options.nonInteractive === 'approve') return { approved: true };
      return { approved: false, note: NON_TTY_NOTE };
    }
    pending++;
    burst++;
    const abortsAtRequest = aborts;
    return queue.run(async () => {
      try {
        if (aborts !== abortsAtRequest)
          throw new ApprovalAborted('The run was aborted at an earlier approval prompt.');
        shown++;
        return await ask(request, burst > 1 ? `Approval ${shown} of ${burst}` : '');
      } catch (error) {
        if (error instanceof ApprovalAborted) aborts++;
        throw error;
      } finally {
        pending--;
        if (pending === 0) shown = burst = 0;
      }
    });
  };

  async function ask(request: ApprovalRequest, position: string): Promise<ApprovalDecision> {
    const width = Math.max(40, options.width ?? output.columns ?? 80);
    const rows = Math.max(10, output.rows ?? 24);
    // The body sits behind a two-column frame ("│ ") and stays off the last column.
    const rendered = renderPayload(request.payload, style, width - 3, request.args);
    const print: Print = (s = '') => output.write(`${s}\n`);
    const choices = choiceLine(request, style, options.memory !== undefined);
    const view = async (r: Rendered, full: () => Rendered) => {
      if (options.pager === 'system') {
        keys.close(); // the pager owns the terminal meanwhile
        const wide = full();
        const ok = runSystemPager([wide.title, ...allLines(wide.body)].join('\n'));
        keys.open();
        if (ok) return;
      }
      await runPager({
        keys,
        output,
        count: r.body.count,
        line: (i, shift) => r.body.line(i, shift),
        ...(r.body.text ? { search: r.body.text } : {}),
        title: r.title,
        footer: choices,
        rows,
        width,
        style,
      });
    };
    // The system pager gets lines uncut (it scrolls sideways itself).
    const uncut = () => renderPayload(request.payload, style, 1_000_000, request.args);
    keys.open();
    try {
      if (position) print(style.dim(position));
      printHeader(rendered, print, width, style);
      if (rendered.body.count > pagerAt) await view(rendered, uncut);
      printBody(rendered, print, previewSize(rendered.body.count, inline, pagerAt), width, style);
      for (;;) {
        print(style.bold(questionFor(request)));
        print(choices);
        keys.arm();
        const key = await keys.next();
        if (key === 'y' || key === 'enter') return { approved: true };
        if (key === 'q' || key === 'ctrl-c') throw new ApprovalAborted();
        if (key === 'n' || key === 'escape') {
          print(style.yellow('Denied. Tell the agent what to do differently (Enter to skip):'));
          const note = await readLine(keys, output, style.yellow('> '), width);
          return note ? { approved: false, note } : { approved: false };
        }
        if (key === 'a') {
          const scope = await pickScope(keys, request, print, style);
          if (scope) return { approved: true, remember: { scope } };
        } else if (key === 'v') {
          await view(rendered, uncut);
        } else if (key === 'e' && editableField(request.payload)) {
          const edited = await editProposal(request, print, width, rows);
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

  /** [e]: the proposal in $EDITOR; the user's changes are shown, then confirmed (or dropped). */
  async function editProposal(
    request: ApprovalRequest,
    print: Print,
    width: number,
    rows: number,
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
    const patch = createTwoFilesPatch('proposal', 'yours', proposal, edited, '', '', { context: 2 });
    const { added, removed } = diffStats(patch);
    const changes: Rendered = {
      title: `Your changes to the proposed ${field} for ${sanitizeLine(request.payload.path)}  ${style.green(`+${added}`)} ${style.red(`−${removed}`)}`,
      warnings: [],
      body: diffLineSource(patch, style, width - 3),
    };
    printHeader(changes, print, width, style);
    printBody(
      changes,
      print,
      previewSize(changes.body.count, inline, Number.POSITIVE_INFINITY),
      width,
      style,
    );
    const confirm = `Apply ${style.bold('your')} version? ${style.green('[y]')} yes  ${style.cyan('[v]')} view your changes  ${style.red('[n]')} back to the proposal`;
    for (;;) {
      print(confirm);
      keys.arm();
      const key = await keys.next();
      if (key === 'ctrl-c') throw new ApprovalAborted();
      if (key === 'v') {
        await runPager({
          keys,
          output,
          count: changes.body.count,
          line: (i, shift) => changes.body.line(i, shift),
          title: changes.title,
          footer: confirm,
          rows,
          width,
          style,
        });
        continue;
      }
      if (key !== 'y' && key !== 'enter') return undefined;
      return { approved: true, overrideArgs: { ...args, [field]: edited } };
    }
  }
}
