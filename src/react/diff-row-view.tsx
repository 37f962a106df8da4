import { type ReactElement, useState } from 'react';
import type { DiffRow, DiffSegment } from './diff-rows.js';
import { wordsOf } from './row-words.js';
import { visibleText } from './visible-text.js';

/** One row of a diff: line-number gutter, sign, and the text with its changed words marked. */
export function Row({ row, width }: { row: DiffRow; width: number }): ReactElement {
  if (row.kind === 'hunk' || row.kind === 'note')
    return (
      <div className={`sa-row sa-${row.kind}`}>
        <span className="sa-text">{visibleText(row.text)}</span>
      </div>
    );
  const sign = row.kind === 'add' ? '+' : row.kind === 'del' ? '-' : ' ';
  // Changed rows show whitespace (→ tab, · trailing space): a whitespace-only change stays visible.
  const changed = row.kind === 'add' || row.kind === 'del';
  const words = wordsOf(row);
  return (
    <div className={`sa-row sa-${row.kind}`} data-kind={row.kind}>
      <Gutter no={row.oldNo} width={width} />
      <Gutter no={row.newNo} width={width} />
      <span className="sa-sign" aria-hidden="true">
        {sign}
      </span>
      <span className="sa-text">
        {words
          ? words.map((w, k) =>
              w.marker ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one line never reorder
                <span key={k} className="sa-more">
                  {w.text}
                </span>
              ) : w.changed ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one line never reorder
                <mark key={k} className={row.kind === 'add' ? 'sa-word-add' : 'sa-word-del'}>
                  {visibleText(w.text, k === words.length - 1 || 'tabs')}
                </mark>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one line never reorder
                <span key={k}>{visibleText(w.text, changed && (k === words.length - 1 || 'tabs'))}</span>
              ),
            )
          : visibleText(row.text, changed)}
      </span>
    </div>
  );
}

function Gutter({ no, width }: { no: number | undefined; width: number }): ReactElement {
  return (
    <span className="sa-no" {...(no === undefined ? { 'aria-hidden': true } : {})}>
      {no === undefined ? ' '.repeat(width) : String(no).padStart(width)}
    </span>
  );
}

/** Unchanged lines, collapsed; a button shows them when their text is known. */
export function Gap({
  gap,
  width,
}: {
  gap: Extract<DiffSegment, { kind: 'gap' }>;
  width: number;
}): ReactElement {
  const [open, setOpen] = useState(false);
  const noun = `${gap.count} unchanged line${gap.count === 1 ? '' : 's'}`;
  if (open && gap.lines)
    return (
      <>
        {gap.lines.map((text, k) => (
          <Row
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap's lines never reorder
            key={k}
            row={{ kind: 'context', text, newNo: gap.fromNew + k }}
            width={width}
          />
        ))}
        <button type="button" className="sa-gap" onClick={() => setOpen(false)}>
          Collapse {noun}
        </button>
      </>
    );
  return gap.lines ? (
    <button type="button" className="sa-gap" onClick={() => setOpen(true)} aria-expanded={false}>
      ⋯ Show {noun} ⋯
    </button>
  ) : (
    <div className="sa-gap sa-gap-static">⋯ {noun} ⋯</div>
  );
}
