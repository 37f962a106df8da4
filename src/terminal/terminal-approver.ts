import { createTwoFilesPatch } from 'diff';
import { AbortEpoch } from '../approval/abort-epoch.js';
import { ApprovalAborted } from '../approval/errors.js';
import { SerialQueue } from '../approval/serial-queue.js';
import type {
  ApprovalCallback,
  ApprovalDecision,
  ApprovalMemoryView,
  ApprovalRequest,
} from '../contract/approval-types.js';
import { BurstCounter } from './burst-counter.js';
import { allLines, diffLineSource, diffStats } from './diff-view.js';
import { editableField, editInEditor } from './edit-in-editor.js';
import { type Clock, type KeyInput, KeyReader } from './key-reader.js';
import { readLine } from './line-input.js';
import { type PagerOptions, restorePagerScreen, runPager } from './pager.js';
import {
  choiceLine,
  FRAME_INSET,
  manageMemory,
  type Print,
  pagerFooter,
  pickScope,
  previewSize,
  printBody,
  printHeader,
  questionFor,
} from './prompt-parts.js';
import { renderPayload } from './render-payload.js';
import type { Rendered } from './rendered.js';
import { sanitizeLine } from './sanitize.js';
import { restoreOnSignals } from './signal-restore.js';
import { colorWanted, createStyle, type Style, screenWanted } from './style.js';
import { runSystemPager } from './system-pager.js';
import { openTerminal, type TerminalOutput, type TerminalStreams } from './terminal-streams.js';

export interface TerminalApproverOptions {
  /** Default: stdin and stdout when both are terminals, else the controlling terminal (/dev/tty). */
  input?: KeyInput;
  output?: TerminalOutput;
  /** Where the one-line notice goes when there is no terminal to ask (default stderr). */
  notice?: NodeJS.WritableStream;
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
  /** What to answer when there is no terminal to ask (default 'deny': fail closed). */
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

/** A rendered body as the pager reads it. */
function pagerSource(r: Rendered): Pick<PagerOptions, 'count' | 'line' | 'search' | 'where'> {
  return {
    count: r.body.count,
    line: (i, shift) => r.body.line(i, shift),
    ...(r.body.text ? { search: r.body.text } : {}),
    ...(r.body.where ? { where: r.body.where } : {}),
  };
}

/** The refusal given to the model when there is no terminal: the system's words, not the user's. */
export const NON_TTY_NOTE =
  'No terminal to ask the user; refused. The approval prompt needs a terminal on both input and output, and none is attached, so nobody saw this request and nothing was changed. Run interactively or configure an approval policy.';

/**
 * A blocking terminal approval prompt: shows each request rendered by payload
 * type (coloured diffs, previews, pager for big ones) and asks. One prompt at a
 * time, even when tool calls run in parallel; quitting also drops the prompts
 * still waiting. Only a key pressed while the prompt is on screen answers it.
 * Without a terminal on both input and output it fails closed.
 */
export function terminalApprover(options: TerminalApproverOptions = {}): ApprovalCallback {
  const inline = options.thresholds?.inline ?? 30;
  const pagerAt = options.thresholds?.pager ?? 100;
  const queue = new SerialQueue();
  // Opened at the first request (a program that never asks never touches /dev/tty).
  let terminal: TerminalStreams | undefined | null = null;
  const screen = screenWanted();
  let output: TerminalOutput;
  let style: Style;
  // One reader for the approver's lifetime; each prompt arms it, discarding keys typed before it showed.
  let keys: KeyReader;
  // Requests of one burst are numbered "Approval i of n" until the queue drains.
  const burst = new BurstCounter();
  const aborts = new AbortEpoch();

  const refuse = (request: ApprovalRequest): ApprovalDecision => {
    const approve = options.nonInteractive === 'approve';
    const what = [request.toolName, request.payload.path].filter(Boolean).map((t) => sanitizeLine(t));
    (options.notice ?? process.stderr).write(
      `sandbox-approval: no terminal to ask the user about ${what.join(' ')}; ${approve ? 'approved by the nonInteractive policy' : 'refused'}.\n`,
    );
    return approve ? { approved: true } : { approved: false, note: NON_TTY_NOTE, decidedBy: 'system' };
  };

  return (request) => {
    if (terminal === null) {
      terminal = openTerminal(options);
      if (terminal) {
        output = terminal.output;
        style = createStyle(options.color ?? colorWanted(output));
        keys = new KeyReader(terminal.input, {
          output,
          bracketedPaste: screen.escapes,
          ...(options.clock ? { clock: options.clock } : {}),
          ...(options.armDelayMs !== undefined ? { armDelayMs: options.armDelayMs } : {}),
          ...(options.onPrompt ? { onArm: options.onPrompt } : {}),
        });
      }
    }
    if (!terminal) return refuse(request);
    burst.arrive();
    const abortsAtRequest = aborts.ticket();
    return queue.run(async () => {
      try {
        aborts.throwIfAbortedSince(abortsAtRequest);
        return await ask(request, burst.show());
      } catch (error) {
        aborts.note(error);
        throw error;
      } finally {
        burst.leave();
      }
    });
  };

  async function ask(request: ApprovalRequest, position: string): Promise<ApprovalDecision> {
    const width = Math.max(40, options.width ?? output.columns ?? 80);
    const rows = Math.max(10, output.rows ?? 24);
    // The body sits behind a two-column frame ("│ ") and stays off the last column.
    const rendered = renderPayload(request.payload, style, width - FRAME_INSET, request.args);
    // Lines printed since the question was last drawn: after `a`→Esc, `l` or the pager (which
    // gives the screen back as it was) the question is redrawn in place, not appended below.
    let below = 0;
    const print: Print = (s = '') => {
      output.write(`${s}\n`);
      below += s.split('\n').length;
    };
    let redraw = false;
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
        ...pagerSource(r),
        title: r.title,
        paths: r.paths ?? [],
        warnings: r.warnings,
        footer: pagerFooter(style),
        rows,
        width,
        style,
        ...screen,
        relayout: (w) => pagerSource(renderPayload(request.payload, style, w - FRAME_INSET, request.args)),
      });
    };
    // The system pager gets lines uncut (it scrolls sideways itself).
    const uncut = () => renderPayload(request.payload, style, 1_000_000, request.args);
    keys.open();
    // SIGTERM / SIGHUP while asking: give the terminal back as it was, then end as the signal says.
    const stopRestoring = restoreOnSignals(() => {
      restorePagerScreen();
      keys.close();
      if (screen.escapes) output.write('\u001b[?25h');
    });
    try {
      if (position) print(style.dim(position));
      printHeader(rendered, print, width, style);
      if (rendered.body.count > pagerAt) await view(rendered, uncut);
      printBody(rendered, print, previewSize(rendered.body.count, inline, pagerAt), width, style);
      for (;;) {
        if (redraw && screen.escapes && below > 0) output.write(`\u001b[${below}A\r\u001b[J`);
        redraw = false;
        below = 0;
        print(style.bold(questionFor(request)));
        print(choices);
        await keys.arm();
        const key = await keys.next();
        if (key === 'y' || key === 'enter') return { approved: true };
        if (key === 'q' || key === 'ctrl-c') throw new ApprovalAborted();
        if (key === 'n' || key === 'escape') {
          print(style.yellow('Denied. Tell the agent what to do differently (Enter to skip):'));
          const note = await readLine(keys, output, style.yellow('> '), width, screen.escapes);
          return note ? { approved: false, note } : { approved: false };
        }
        if (key === 'a') {
          const scope = await pickScope(keys, request, print, style);
          if (scope) return { approved: true, remember: { scope } };
          redraw = true;
        } else if (key === 'v') {
          await view(rendered, uncut);
          // The alternate screen gives back the question as it was; a pager drawn on the main screen does not.
          redraw = screen.alternateScreen && options.pager !== 'system';
        } else if (key === 'e' && editableField(request.payload)) {
          const edited = await editProposal(request, print, width, rows);
          if (edited) return edited;
        } else if (key === 'l' && options.memory) {
          const before = options.memory.list().length;
          await manageMemory(options.memory, keys, print, style);
          // Esc: in place; a revoke stays on screen with its confirmation.
          redraw = options.memory.list().length === before;
        }
      }
    } finally {
      stopRestoring();
      keys.close();
      if (screen.escapes) output.write('\u001b[?25h');
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
      paths: [sanitizeLine(request.payload.path)],
      title: `Your changes to the proposed ${field} for ${sanitizeLine(request.payload.path)}  ${style.green(`+${added}`)} ${style.red(`−${removed}`)}`,
      warnings: [],
      body: diffLineSource(patch, style, width - FRAME_INSET),
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
      await keys.arm();
      const key = await keys.next();
      if (key === 'ctrl-c') throw new ApprovalAborted();
      if (key === 'v') {
        await runPager({
          keys,
          output,
          ...pagerSource(changes),
          title: changes.title,
          paths: changes.paths ?? [],
          footer: confirm,
          rows,
          width,
          style,
          ...screen,
          relayout: (w) => pagerSource({ ...changes, body: diffLineSource(patch, style, w - FRAME_INSET) }),
        });
        continue;
      }
      if (key !== 'y' && key !== 'enter') return undefined;
      return { approved: true, overrideArgs: { ...args, [field]: edited } };
    }
  }
}
