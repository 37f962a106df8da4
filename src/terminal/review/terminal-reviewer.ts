import { ApprovalAborted } from '../../approval/errors.js';
import type { ChangeSet } from '../../staging/change-set.js';
import type { ReviewDecisions } from '../../staging/decisions.js';
import { applyHunks } from '../../staging/hunks.js';
import type { Reviewer } from '../../staging/staging-area.js';
import { editInEditor } from '../edit-in-editor.js';
import { type Clock, type KeyInput, KeyReader } from '../key-reader.js';
import { readLine } from '../line-input.js';
import { restoreOnSignals } from '../signal-restore.js';
import { colorWanted, createStyle, screenWanted } from '../style.js';
import { openTerminal, type TerminalOutput } from '../terminal-streams.js';
import { type FileBody, fileBody, renderScreen } from './render-review.js';
import { decisionsOf, type FileChoice, initialState, markOf, setAll } from './review-state.js';

export interface TerminalReviewerOptions {
  input?: KeyInput;
  output?: TerminalOutput;
  /** Where the notice goes when there is no terminal (default stderr). */
  notice?: NodeJS.WritableStream;
  color?: boolean;
  /** Default: the terminal's size, else 80×24. */
  width?: number;
  height?: number;
  /** Editor command for [e]dit (default $VISUAL, $EDITOR, else vi). */
  editor?: string;
  /** How long (ms, default 350) the screen must be up before keys count (type-ahead is dropped). */
  armDelayMs?: number;
  clock?: Clock;
}

/** The note the model gets when nobody could review: the system's words, not a person's. */
export const NO_TERMINAL_REVIEW_NOTE =
  'No terminal to show the review; nothing was applied. The review screen needs a terminal on both input and output.';
export const CANCELLED_REVIEW_NOTE = 'The person closed the review without applying; nothing was applied.';

const rejectAll = (set: ChangeSet, note: string): ReviewDecisions => ({
  changeSetId: set.id,
  files: Object.fromEntries(set.files.map((f) => [f.path, { action: 'reject' as const }])),
  note,
});

/** The file as it would be written now: its base plus the accepted hunks (or the person's version). */
function currentText(c: FileChoice): string {
  if (c.edited !== undefined) return c.edited;
  const origin = c.file.sourceBase ?? c.file.base;
  const accepted = new Set(c.file.hunks.filter((_, i) => c.accepted[i]).map((h) => h.id));
  return c.file.hunks.length
    ? applyHunks(origin.text ?? '', c.file.hunks, accepted)
    : (c.file.staged.text ?? '');
}

/**
 * A full-screen review of a change set: the file list with +N −M, each file's
 * diff by change (hunk), toggles per file and per change, accept / reject all,
 * $EDITOR, notes; `y` applies what is marked. Closing it (q, Esc, Ctrl-C) or
 * having no terminal rejects everything: nothing is applied unseen.
 */
export function terminalReviewer(options: TerminalReviewerOptions = {}): Reviewer {
  return async (set, context) => {
    const terminal = openTerminal(options);
    if (!terminal) {
      (options.notice ?? process.stderr).write(
        `sandbox-approval: no terminal to review ${set.files.length} changed file(s); nothing was applied.\n`,
      );
      return rejectAll(set, NO_TERMINAL_REVIEW_NOTE);
    }
    const { input, output } = terminal;
    const screen = screenWanted();
    const style = createStyle(options.color ?? colorWanted(output));
    const keys = new KeyReader(input, {
      output,
      bracketedPaste: screen.escapes,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.armDelayMs !== undefined ? { armDelayMs: options.armDelayMs } : {}),
    });
    const width = () => options.width ?? output.columns ?? 80;
    const height = () => options.height ?? output.rows ?? 24;
    const enter = () => screen.alternateScreen && output.write('\u001b[?1049h\u001b[?25l');
    const leave = () => screen.alternateScreen && output.write('\u001b[?25h\u001b[?1049l');
    const state = initialState(set);
    // The agent's own summary, if it gave one, is shown until the first key.
    let message = context?.summary ? `Agent: ${context.summary}` : '';
    let body: FileBody | undefined;
    const draw = () => {
      body =
        state.open === undefined ? undefined : fileBody(state.files[state.open]!, state.hunk, style, width());
      const lines = renderScreen(state, style, width(), height(), message, body);
      output.write(`${screen.escapes ? '\u001b[H\u001b[2J' : '\n'}${lines.join('\r\n')}`);
      message = '';
    };
    const stopRestore = restoreOnSignals(() => leave());
    enter();
    keys.open();
    try {
      draw();
      await keys.arm();
      for (;;) {
        const key = await keys.next();
        if (key === 'ctrl-c') return rejectAll(set, CANCELLED_REVIEW_NOTE);
        const done = await handle(key);
        if (done) return done;
        draw();
      }
    } finally {
      keys.close();
      leave();
      stopRestore();
    }

    async function ask(prompt: string): Promise<string | undefined> {
      output.write(`\u001b[${height()};1H`);
      try {
        return (await readLine(keys, output, prompt, width(), screen.escapes)).trim() || undefined;
      } catch (error) {
        if (error instanceof ApprovalAborted) return undefined;
        throw error;
      }
    }

    async function edit(c: FileChoice): Promise<void> {
      if (c.file.binary) {
        message = 'Binary files cannot be edited here; accept or reject them whole.';
        return;
      }
      keys.close();
      leave();
      const editor = options.editor ?? process.env.VISUAL ?? process.env.EDITOR ?? 'vi';
      const result = editInEditor(currentText(c), c.file.path, editor);
      enter();
      keys.open();
      await keys.arm();
      if (result === undefined) message = 'The editor failed; nothing was changed.';
      else if (result !== currentText(c)) c.edited = result;
    }

    async function handle(key: string): Promise<ReviewDecisions | undefined> {
      const files = state.files;
      if (key === 'y') return decisionsOf(state);
      if (state.open === undefined) {
        const c = files[state.cursor];
        if (key === 'q' || key === 'escape') return rejectAll(set, CANCELLED_REVIEW_NOTE);
        if ((key === 'up' || key === 'k') && state.cursor > 0) state.cursor--;
        else if ((key === 'down' || key === 'j') && state.cursor < files.length - 1) state.cursor++;
        else if ((key === 'enter' || key === 'right' || key === 'l') && c) {
          state.open = state.cursor;
          state.hunk = 0;
          state.scroll = 0;
        } else if (key === ' ' && c) setAll(c, markOf(c) !== 'all');
        else if (key === 'a') for (const f of files) setAll(f, true);
        else if (key === 'r') for (const f of files) setAll(f, false);
        else if (key === 'e' && c) await edit(c);
        else if (key === 'n' && c) c.note = await ask(`Note on ${c.file.path}: `);
        else if (key === 'N') state.note = await ask('Note for the agent: ');
        return undefined;
      }
      const c = files[state.open]!;
      const count = Math.max(1, c.file.hunks.length);
      const room = Math.max(1, height() - 4);
      const show = () => {
        const start = body?.hunkStarts[state.hunk] ?? 0;
        if (start < state.scroll || start >= state.scroll + room) state.scroll = Math.max(0, start - 1);
      };
      if (key === 'escape' || key === 'left' || key === 'h' || key === 'q') state.open = undefined;
      else if ((key === 'tab' || key === '\t' || key === 'n') && state.hunk < count - 1) {
        state.hunk++;
        draw();
        show();
      } else if (key === 'p' && state.hunk > 0) {
        state.hunk--;
        draw();
        show();
      } else if (key === ' ') {
        c.accepted[state.hunk] = !c.accepted[state.hunk];
        delete c.edited;
      } else if (key === 'j' || key === 'down')
        state.scroll = Math.min(state.scroll + 1, Math.max(0, (body?.lines.length ?? 0) - room));
      else if (key === 'k' || key === 'up') state.scroll = Math.max(0, state.scroll - 1);
      else if (key === 'pagedown')
        state.scroll = Math.min(state.scroll + room, Math.max(0, (body?.lines.length ?? 0) - room));
      else if (key === 'pageup') state.scroll = Math.max(0, state.scroll - room);
      else if (key === 'a') setAll(c, true);
      else if (key === 'r') setAll(c, false);
      else if (key === 'u') delete c.edited;
      else if (key === 'e') await edit(c);
      else if (key === 'm') {
        const id = c.file.hunks[state.hunk]?.id;
        const note = await ask('Note on this change: ');
        if (id && note) c.hunkNotes.set(id, note);
        else if (!id) c.note = note;
      }
      return undefined;
    }
  };
}
