import type { ChangeSet, ChangeSetFile } from '../../staging/change-set.js';
import type { FileDecision, ReviewDecisions } from '../../staging/decisions.js';

/** A person's choices on one file while the review is open. */
export interface FileChoice {
  file: ChangeSetFile;
  /** Per hunk: accepted? (one entry when the file has no hunks: binary, pure move, empty file). */
  accepted: boolean[];
  edited?: string;
  note?: string;
  hunkNotes: Map<string, string>;
}

/** Everything on the review screen: the choices, where the cursor is and what is open. */
export interface ReviewState {
  set: ChangeSet;
  files: FileChoice[];
  /** Selected file in the list. */
  cursor: number;
  /** Open file (its diff), or undefined for the list. */
  open: number | undefined;
  /** Selected hunk in the open file. */
  hunk: number;
  /** First body line shown in the open file. */
  scroll: number;
  note?: string;
}

/** Starts with every change accepted: the person rejects what they do not want, then applies. */
export function initialState(set: ChangeSet): ReviewState {
  return {
    set,
    files: set.files.map((file) => ({
      file,
      accepted: file.hunks.length > 0 ? file.hunks.map(() => true) : [true],
      hunkNotes: new Map(),
    })),
    cursor: 0,
    open: undefined,
    hunk: 0,
    scroll: 0,
  };
}

export type Mark = 'all' | 'none' | 'some' | 'edited';

export function markOf(choice: FileChoice): Mark {
  if (choice.edited !== undefined) return 'edited';
  const n = choice.accepted.filter(Boolean).length;
  return n === choice.accepted.length ? 'all' : n === 0 ? 'none' : 'some';
}

export function setAll(choice: FileChoice, accepted: boolean): void {
  choice.accepted = choice.accepted.map(() => accepted);
  delete choice.edited;
}

function decisionOf(choice: FileChoice): FileDecision {
  const note = choice.note ? { note: choice.note } : {};
  const mark = markOf(choice);
  if (mark === 'edited') return { action: 'edit', content: choice.edited!, ...note };
  if (mark === 'all') return { action: 'accept', ...note };
  if (mark === 'none') return { action: 'reject', ...note };
  const { hunks } = choice.file;
  return {
    action: 'hunks',
    hunks: Object.fromEntries(hunks.map((h, i) => [h.id, choice.accepted[i] ? 'accept' : 'reject'] as const)),
    ...(choice.hunkNotes.size ? { notes: Object.fromEntries(choice.hunkNotes) } : {}),
    ...note,
  };
}

/** The decisions the screen stands for. */
export function decisionsOf(state: ReviewState): ReviewDecisions {
  return {
    changeSetId: state.set.id,
    files: Object.fromEntries(state.files.map((c) => [c.file.path, decisionOf(c)])),
    ...(state.note ? { note: state.note } : {}),
  };
}
