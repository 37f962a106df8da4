import { type KeyboardEvent, type ReactElement, useState } from 'react';
import type { ChangeSet, ChangeSetFile } from '../staging/change-set.js';
import type { FileDecision, ReviewDecisions } from '../staging/decisions.js';
import { hunkDiff } from '../staging/hunk-diff.js';
import { DiffView } from './diff-view.js';
import { visibleText } from './visible-text.js';

export interface ChangeSetReviewProps {
  /** The change set to review (plain JSON: it may come from the server as it is). */
  changeSet: ChangeSet;
  /** Called once with the decisions when the person applies. */
  onSubmit: (decisions: ReviewDecisions) => void;
  /** Called when the person rejects everything and closes (no decisions are made for them). */
  onCancel?: () => void;
}

interface Choice {
  accepted: boolean[];
  note: string;
}

const initial = (f: ChangeSetFile): Choice => ({
  accepted: f.hunks.length ? f.hunks.map(() => true) : [true],
  note: '',
});

function decisionOf(f: ChangeSetFile, c: Choice): FileDecision {
  const note = c.note.trim() ? { note: c.note.trim() } : {};
  const n = c.accepted.filter(Boolean).length;
  if (n === c.accepted.length) return { action: 'accept', ...note };
  if (n === 0) return { action: 'reject', ...note };
  return {
    action: 'hunks',
    hunks: Object.fromEntries(f.hunks.map((h, i) => [h.id, c.accepted[i] ? 'accept' : 'reject'] as const)),
    ...note,
  };
}

const markOf = (c: Choice) => {
  const n = c.accepted.filter(Boolean).length;
  return n === c.accepted.length ? '✓' : n === 0 ? '✗' : '~';
};

/**
 * The whole change set of an agent's turn: every file with +N −M, the selected
 * file's changes one by one with a checkbox each, a note per file, accept /
 * reject all and apply. Keyboard: ↑/↓ (j/k) file, n/p change, space toggle the
 * change, a / r accept / reject all, y apply; every control is also a button.
 */
export function ChangeSetReview(props: ChangeSetReviewProps): ReactElement {
  const { changeSet: set } = props;
  const [choices, setChoices] = useState<Choice[]>(() => set.files.map(initial));
  const [selected, setSelected] = useState(0);
  const [hunk, setHunk] = useState(0);
  const [done, setDone] = useState(false);
  const file = set.files[selected];
  const choice = choices[selected];

  const update = (i: number, fn: (c: Choice) => Choice) =>
    setChoices((all) => all.map((c, j) => (j === i ? fn(c) : c)));
  const toggle = (i: number, h: number) =>
    update(i, (c) => ({ ...c, accepted: c.accepted.map((a, k) => (k === h ? !a : a)) }));
  const setAll = (accepted: boolean) =>
    setChoices((all) => all.map((c) => ({ ...c, accepted: c.accepted.map(() => accepted) })));
  const select = (i: number) => {
    setSelected(Math.max(0, Math.min(set.files.length - 1, i)));
    setHunk(0);
  };
  const submit = () => {
    if (done) return;
    setDone(true);
    props.onSubmit({
      changeSetId: set.id,
      files: Object.fromEntries(set.files.map((f, i) => [f.path, decisionOf(f, choices[i]!)])),
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).tagName === 'TEXTAREA') return;
    const count = file ? Math.max(1, file.hunks.length) : 1;
    const keys: Record<string, () => void> = {
      ArrowDown: () => select(selected + 1),
      j: () => select(selected + 1),
      ArrowUp: () => select(selected - 1),
      k: () => select(selected - 1),
      n: () => setHunk(Math.min(count - 1, hunk + 1)),
      p: () => setHunk(Math.max(0, hunk - 1)),
      ' ': () => toggle(selected, hunk),
      a: () => setAll(true),
      r: () => setAll(false),
      y: submit,
    };
    const action = keys[e.key];
    if (!action || done) return;
    e.preventDefault();
    action();
  };

  if (done) return <div className="sa-status">Decisions sent.</div>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the review takes its keyboard shortcuts when focused
    <section className="sa-card sa-review" tabIndex={0} onKeyDown={onKeyDown} aria-label="Review changes">
      <div className="sa-title">
        Review {set.stats.files} changed file{set.stats.files === 1 ? '' : 's'}
        <span className="sa-stats">
          <span className="sa-plus">+{set.stats.added}</span>{' '}
          <span className="sa-minus">−{set.stats.removed}</span>
        </span>
      </div>
      <div className="sa-heading">
        <kbd>↑</kbd>/<kbd>↓</kbd> file · <kbd>n</kbd>/<kbd>p</kbd> change · <kbd>space</kbd> toggle ·{' '}
        <kbd>a</kbd>/<kbd>r</kbd> accept/reject all · <kbd>y</kbd> apply
      </div>
      <ul className="sa-files" aria-label="Changed files">
        {set.files.map((f, i) => (
          <li key={f.path}>
            <button
              type="button"
              className={`sa-file${i === selected ? ' sa-selected' : ''}`}
              aria-current={i === selected}
              onClick={() => select(i)}
            >
              <span className="sa-mark">[{markOf(choices[i]!)}]</span>{' '}
              <span className="sa-status-word">{f.status}</span>{' '}
              <span className="sa-path">
                {visibleText(f.movedFrom ? `${f.movedFrom} → ${f.path}` : f.path)}
              </span>{' '}
              <span className="sa-stats">
                <span className="sa-plus">+{f.added}</span> <span className="sa-minus">−{f.removed}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {file && choice && (
        <div className="sa-file-view">
          {file.hunks.length === 0 ? (
            <label className="sa-hunk-head">
              <input type="checkbox" checked={choice.accepted[0]} onChange={() => toggle(selected, 0)} />{' '}
              Accept{' '}
              {file.binary
                ? 'this binary file'
                : file.status === 'moved'
                  ? `the move from ${visibleText(file.movedFrom ?? '')}`
                  : `this ${file.status} file`}
            </label>
          ) : (
            file.hunks.map((h, i) => (
              <div key={h.id} className={`sa-hunk-block${i === hunk ? ' sa-current' : ''}`}>
                <label className="sa-hunk-head">
                  <input type="checkbox" checked={choice.accepted[i]} onChange={() => toggle(selected, i)} />{' '}
                  Accept change {i + 1}/{file.hunks.length}
                </label>
                <DiffView unifiedDiff={hunkDiff(file, i)} label={`Change ${i + 1} of ${file.path}`} />
              </div>
            ))
          )}
          <label className="sa-deny">
            Note for the agent on {visibleText(file.path)}
            <textarea
              value={choice.note}
              rows={2}
              onChange={(e) => update(selected, (c) => ({ ...c, note: e.target.value }))}
            />
          </label>
        </div>
      )}
      <div className="sa-actions">
        <button type="button" className="sa-button" onClick={() => setAll(true)}>
          Accept all
        </button>
        <button type="button" className="sa-button sa-deny-button" onClick={() => setAll(false)}>
          Reject all
        </button>
        <button type="button" className="sa-button sa-approve-button" onClick={submit}>
          Apply
        </button>
        {props.onCancel && (
          <button type="button" className="sa-button" onClick={props.onCancel}>
            Close without applying
          </button>
        )}
      </div>
    </section>
  );
}

/** Extra styles of the review (with sandboxApprovalCss). */
export const changeSetReviewCss = `
.sa-files { list-style: none; padding: 0; margin: 6px 0; }
.sa-file { display: block; width: 100%; text-align: left; font: 13px/1.6 ui-monospace, monospace; background: none; border: 0; border-radius: 4px; padding: 1px 6px; cursor: pointer; }
.sa-file.sa-selected { background: #ddf4ff; font-weight: 600; }
.sa-hunk-block { border-left: 3px solid transparent; padding-left: 6px; margin: 6px 0; }
.sa-hunk-block.sa-current { border-left-color: #0969da; }
.sa-hunk-head { font-weight: 600; display: block; }
`;
