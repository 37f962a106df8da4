import { type ReactElement, useMemo, useState } from 'react';
import { BATCH_LINES } from './diff-batches.js';
import { splitLines } from './diff-rows.js';
import { visibleText } from './visible-text.js';

/**
 * A new file's content with line numbers; long files show their head and a button
 * that draws the next lines in batches (a 100k-line file never lands in the DOM at once).
 */
export function FilePreview(props: {
  content: string;
  head?: number;
  label?: string;
  /** 'del': content about to be removed (a delete), drawn as removed lines. */
  kind?: 'add' | 'del';
}): ReactElement {
  const kind = props.kind ?? 'add';
  const lines = useMemo(() => splitLines(props.content), [props.content]);
  const head = props.head ?? 30;
  const [count, setCount] = useState(lines.length <= head + 5 ? lines.length : head);
  const shown = count >= lines.length ? lines : lines.slice(0, count);
  const left = lines.length - shown.length;
  const next = Math.min(left, count <= head ? BATCH_LINES - count : BATCH_LINES);
  const width = Math.max(3, String(lines.length).length);
  return (
    <figure className="sa-diff sa-preview" aria-label={props.label ?? 'New content'}>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of one file never reorder
        <div key={i} className={`sa-row sa-${kind}`} data-kind={kind}>
          <span className="sa-no">{String(i + 1).padStart(width)}</span>
          <span className="sa-sign" aria-hidden="true">
            {kind === 'add' ? '+' : '-'}
          </span>
          <span className="sa-text">{visibleText(line, true)}</span>
        </div>
      ))}
      {lines.length === 0 ? <div className="sa-gap sa-gap-static">(empty file)</div> : null}
      {left === 0 ? null : (
        <button type="button" className="sa-gap" onClick={() => setCount(count + next)}>
          {next === left
            ? `⋯ Show all ${lines.length.toLocaleString('en')} lines ⋯`
            : `⋯ Show ${next.toLocaleString('en')} more lines (${left.toLocaleString('en')} not shown yet) ⋯`}
        </button>
      )}
    </figure>
  );
}
