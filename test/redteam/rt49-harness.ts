// rt49 harness: run one tool through ApprovalToolset on a real temp file, capture the payload,
// and check the payload's unifiedDiff strictly (hunks applied at their headers' lines, no fuzz).
import { type Run as DiffRun, runGated as runDiffGated } from './diff-harness.js';

export { tempDir } from '../helpers/temp-project.js';
export { cleanup } from './diff-harness.js';

/** diff-harness's run, its payload read field by field (edit, patch and lines payloads alike). */
export type Run = Omit<DiffRun, 'payload'> & { payload: any };

/** One tool call through ApprovalToolset (approves and records the payload); files up to 1 GiB. */
export async function runGated(
  before: string,
  tool: string,
  args: Record<string, unknown>,
  opts: { file?: string; limits?: Record<string, number> } = {},
): Promise<Run> {
  return runDiffGated(before, tool, args, opts.file, { maxFileBytes: 1 << 30, ...(opts.limits ?? {}) });
}

interface Line {
  text: string;
  nl: boolean;
}
function toLines(t: string): Line[] {
  if (t === '') return [];
  const parts = t.split('\n');
  const out: Line[] = parts.map((text) => ({ text, nl: true }));
  if (parts.at(-1) === '') out.pop();
  else out.at(-1)!.nl = false;
  return out;
}
function fromLines(ls: Line[]): string {
  let s = '';
  for (const l of ls) s += l.text + (l.nl ? '\n' : '');
  return s;
}

/**
 * Applies a unified diff strictly: every hunk at exactly the line its header names, every
 * context / removed line equal to the file's (with its "no newline" state), header counts
 * equal to the lines of the hunk, new starts consistent. Returns the new text or errors.
 */
export function strictApply(before: string, unified: string): { text?: string; errors: string[] } {
  const errors: string[] = [];
  const old = toLines(before);
  const lines = unified.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let i = 0;
  if (lines[i]?.startsWith('--- ')) i++;
  if (lines[i]?.startsWith('+++ ')) i++;
  const out: Line[] = [];
  let oldAt = 0; // lines of old consumed
  let delta = 0;
  let hunkNo = 0;
  while (i < lines.length) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[i]!);
    if (!h) {
      errors.push(`line ${i + 1}: expected a hunk header, got ${JSON.stringify(lines[i]!.slice(0, 80))}`);
      return { errors };
    }
    hunkNo++;
    const os = Number(h[1]);
    const oc = h[2] === undefined ? 1 : Number(h[2]);
    const ns = Number(h[3]);
    const nc = h[4] === undefined ? 1 : Number(h[4]);
    i++;
    const start = oc === 0 ? os : os - 1; // old index of the hunk's first line
    if (start < oldAt) errors.push(`hunk ${hunkNo} @@ -${os}: overlaps the one before (at ${oldAt + 1})`);
    const expNs = oc === 0 ? start + delta + (nc === 0 ? 0 : 1) : os + delta;
    if (nc !== 0 && ns !== expNs) errors.push(`hunk ${hunkNo} @@ -${os}: new start ${ns}, expected ${expNs}`);
    // copy untouched lines
    for (; oldAt < start && oldAt < old.length; oldAt++) out.push(old[oldAt]!);
    let o = 0;
    let n = 0;
    let last: { side: 'old' | 'new' | 'both'; line: Line; oldIdx: number } | undefined;
    while (i < lines.length && (o < oc || n < nc || lines[i]!.startsWith('\\'))) {
      const l = lines[i]!;
      const mark = l[0];
      if (mark === '\\') {
        if (!last) errors.push(`hunk ${hunkNo}: marker before any line`);
        else {
          last.line.nl = false;
          if (last.side !== 'new') {
            const f = old[last.oldIdx];
            if (f?.nl !== false)
              errors.push(`hunk ${hunkNo}: "no newline" on old line ${last.oldIdx + 1}, which has one`);
          }
        }
        i++;
        continue;
      }
      // a line without its marker state: check the file's when old
      if (last && last.side !== 'new' && last.line.nl) {
        const f = old[last.oldIdx];
        if (f && f.nl === false)
          errors.push(`hunk ${hunkNo}: old line ${last.oldIdx + 1} has no newline, not marked`);
      }
      const text = l.slice(1);
      if (mark === ' ' || mark === '-') {
        const idx = start + o;
        const f = old[idx];
        if (!f) errors.push(`hunk ${hunkNo}: old line ${idx + 1} past the end`);
        else if (f.text !== text)
          errors.push(
            `hunk ${hunkNo} @@ -${os}: old line ${idx + 1} is ${JSON.stringify(f.text.slice(0, 60))}, hunk says ${JSON.stringify(text.slice(0, 60))}`,
          );
        o++;
        oldAt = idx + 1;
        if (mark === ' ') {
          const line = { text, nl: true };
          out.push(line);
          n++;
          last = { side: 'both', line, oldIdx: idx };
        } else last = { side: 'old', line: { text, nl: true }, oldIdx: idx };
      } else if (mark === '+') {
        const line = { text, nl: true };
        out.push(line);
        n++;
        last = { side: 'new', line, oldIdx: -1 };
      } else {
        errors.push(`hunk ${hunkNo}: bad line ${JSON.stringify(l.slice(0, 60))}`);
        return { errors };
      }
      i++;
    }
    if (last && last.side !== 'new' && last.line.nl) {
      const f = old[last.oldIdx];
      if (f && f.nl === false)
        errors.push(`hunk ${hunkNo}: old line ${last.oldIdx + 1} has no newline, not marked`);
    }
    if (o !== oc) errors.push(`hunk ${hunkNo} @@ -${os},${oc}: old side has ${o} lines`);
    if (n !== nc) errors.push(`hunk ${hunkNo} @@ +${ns},${nc}: new side has ${n} lines`);
    delta += nc - oc;
    if (errors.length > 20) return { errors };
  }
  for (; oldAt < old.length; oldAt++) out.push(old[oldAt]!);
  return { text: fromLines(out), errors };
}

/** +/- counts of a diff body. */
export function countMarks(unified: string): { added: number; removed: number; lines: number } {
  const lines = unified.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let added = 0;
  let removed = 0;
  let i = 0;
  if (lines[0]?.startsWith('--- ')) i = 1;
  if (lines[1]?.startsWith('+++ ')) i = 2;
  for (; i < lines.length; i++) {
    const l = lines[i]!;
    if (l[0] === '+') added++;
    else if (l[0] === '-') removed++;
  }
  return { added, removed, lines: lines.length };
}

/** Every problem of a payload's diff against what was written; [] when the promise held. */
export function checkPayload(r: Run, opts: { skipCoarse?: boolean } = {}): string[] {
  if (!r.outcome.ok) return [];
  if (r.after === r.before) return r.payload ? [] : [];
  const p = r.payload;
  if (!p) return ['nothing shown for a write'];
  if (typeof p.unifiedDiff !== 'string') return ['no unifiedDiff'];
  if (p.diffCoarse && opts.skipCoarse !== false) {
    // a coarse diff is still a diff: it must apply
  }
  const errs: string[] = [];
  const applied = strictApply(r.before, p.unifiedDiff);
  errs.push(...applied.errors.slice(0, 5));
  if (applied.text !== undefined && applied.text !== r.after) {
    let k = 0;
    while (k < applied.text.length && applied.text[k] === r.after[k]) k++;
    errs.push(
      `applied != written at char ${k}: ${JSON.stringify(applied.text.slice(Math.max(0, k - 20), k + 40))} vs ${JSON.stringify(r.after.slice(Math.max(0, k - 20), k + 40))}`,
    );
  }
  const c = countMarks(p.unifiedDiff);
  if (c.added !== p.added || c.removed !== p.removed)
    errs.push(`counts: payload +${p.added} -${p.removed}, diff +${c.added} -${c.removed}`);
  if (p.diffLines !== c.lines) errs.push(`diffLines ${p.diffLines} vs ${c.lines}`);
  const dm = /\(\+(\d+) −(\d+)\)/.exec(p.description ?? '');
  if (dm && (Number(dm[1]) !== p.added || Number(dm[2]) !== p.removed))
    errs.push(`description ${p.description} vs +${p.added} −${p.removed}`);
  return errs;
}

/** Plain str-replace-all, left to right, non-overlapping. */
export function replaceAllPlain(text: string, a: string, b: string): string {
  return text.split(a).join(b);
}

/** Old line indices (0-based) the non-overlapping hits of `old` in `text` touch (see rt49 notes). */
export function touchedLines(text: string, old: string, nu: string): Set<number> {
  const starts: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineOf = (p: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= p) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const out = new Set<number>();
  for (let o = text.indexOf(old); o !== -1; o = text.indexOf(old, o + old.length)) {
    const end = o + old.length; // exclusive
    const l0 = lineOf(o);
    const l1 = lineOf(end - 1);
    for (let l = l0; l <= l1; l++) out.add(l);
    // ends right after a newline and the new text does not: the next line is joined
    if (text[end - 1] === '\n' && !nu.endsWith('\n')) out.add(l1 + 1);
    // replaced text within a line that now holds a newline: still that line only
  }
  return out;
}

/** '-' lines of a diff (0-based old indices) outside `allowed`. */
export function removedOutside(unified: string, allowed: Set<number>): number[] {
  const bad: number[] = [];
  const lines = unified.split('\n');
  let oldIdx = -1;
  for (const l of lines) {
    const h = /^@@ -(\d+)(?:,(\d+))? /.exec(l);
    if (h) {
      oldIdx = Number(h[2]) === 0 ? Number(h[1]) : Number(h[1]) - 1;
      continue;
    }
    if (oldIdx < 0) continue;
    if (l[0] === ' ') oldIdx++;
    else if (l[0] === '-') {
      if (!allowed.has(oldIdx)) bad.push(oldIdx);
      oldIdx++;
    }
  }
  return bad;
}

/**
 * The model's result diff against the payload's full diff: every line shown is the full
 * diff's line at that place (elided runs `… N more … lines …` skip N lines; shortened long
 * lines are skipped; with a "goes on" note the last hunk header may differ). '' when it holds.
 */
export function compareModelDiff(full: string, model: string): string {
  const F = full.split('\n');
  const M = model.split('\n');
  const note = M.find((l) => l.startsWith('[')) ?? '';
  const goesOn = note.includes('goes on');
  let lastHeader = -1;
  for (let i = 0; i < M.length; i++) if (M[i]!.startsWith('@@')) lastHeader = i;
  let fi = 0;
  for (let i = 0; i < M.length; i++, fi++) {
    const m = M[i]!;
    if (m.startsWith('[')) break;
    if (m === '' && i === M.length - 1) break;
    const more = /^[-+ ]… (\d+) more (added|removed|unchanged) lines …$/.exec(m);
    if (more) {
      fi += Number(more[1]) - 1;
      continue;
    }
    if (m.includes('[… ')) continue;
    if (m !== F[fi] && !(goesOn && i === lastHeader))
      return `line ${i + 1}: model ${JSON.stringify(m.slice(0, 60))} vs full ${JSON.stringify((F[fi] ?? '<none>').slice(0, 60))} note=${note.slice(0, 200)}`;
  }
  return '';
}
