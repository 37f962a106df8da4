// rt44: generated property over edit_lines calls with SEVERAL operations each (replace_line, insert_before,
// insert_after, delete_line, replace_range, delete_range mixed in one call), anchors taken from any surface
// shown so far (whole reads, page reads, every edit_lines result diff, error candidate lists), some with a
// slipped line number or cut to 4 digits, on files full of twins — including lines that differ only in
// trailing whitespace (a line's hash ignores it, so they are hash twins) — in LF / CRLF / BOM formats, with
// changes by write_file and outside writes in between.
// Oracle: every line carries a hidden id. A successful call must equal the operations applied to, for each
// anchor, the line (id) the surface showed it for — or one of the lines another surface showed the same
// anchor string for, or, after a change not made by edit_lines, the line every longest common subsequence of
// the surface's text and the file maps it to. Known and reported separately (rt44-spelling,
// rt44-older-surface-copy): once the line shown is gone, a line with the same text is taken; that is
// allowed here (counted) so that the property looks for other failures. A refusal must leave disk unchanged
// and use anchor_*, invalid_range_order or invalid_argument (overlap).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

interface Line {
  id: number;
  text: string;
}
interface Shown {
  anchor: string;
  id: number;
}
interface Surface {
  kind: string;
  anchors: Shown[];
  text: string[];
  /** An outside/other-tool change happened after this surface was shown. */
  foreign: boolean;
  /** The file's version (a counter of changes) when shown. */
  version: number;
}
type OpKind =
  | 'replace_line'
  | 'insert_before'
  | 'insert_after'
  | 'delete_line'
  | 'replace_range'
  | 'delete_range';
interface OpPick {
  op: OpKind;
  surface: number;
  at: number;
  span: number;
  mangle: 'none' | 'slip' | 'short4';
}
type Step =
  | { k: 'whole' }
  | { k: 'page'; at: number; n: number }
  | { k: 'edit'; ops: OpPick[] }
  | {
      k: 'change';
      how: 'copyOver' | 'insertCopy' | 'delete' | 'fresh';
      at: number;
      from: number;
      tool: boolean;
    };

const ALPHA = ['}', '', '  return 1;', 'a();', 'a(); ', 'a();\u3000', '{', '  }', 'b();', '\t'];
const idx = fc.nat(500);
const opPick: fc.Arbitrary<OpPick> = fc.record({
  op: fc.constantFrom<OpKind>(
    'replace_line',
    'replace_line',
    'insert_before',
    'insert_after',
    'delete_line',
    'replace_range',
    'delete_range',
  ),
  surface: idx,
  at: idx,
  span: fc.integer({ min: 1, max: 3 }),
  mangle: fc.constantFrom<'none' | 'slip' | 'short4'>('none', 'none', 'none', 'none', 'slip', 'short4'),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant({ k: 'whole' as const }), weight: 1 },
  {
    arbitrary: fc.record({ k: fc.constant('page' as const), at: idx, n: fc.integer({ min: 1, max: 6 }) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('edit' as const),
      ops: fc.array(opPick, { minLength: 1, maxLength: 3 }),
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('change' as const),
      how: fc.constantFrom('copyOver' as const, 'insertCopy' as const, 'delete' as const, 'fresh' as const),
      at: idx,
      from: idx,
      tool: fc.boolean(),
    }),
    weight: 2,
  },
);

function forcedImage(a: string[], b: string[], i: number): number | null {
  const key = (s: string) => s.trimEnd();
  const A = a.map(key);
  const B = b.map(key);
  const n = A.length;
  const m = B.length;
  const pre = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let x = 1; x <= n; x++)
    for (let y = 1; y <= m; y++)
      pre[x]![y] =
        A[x - 1] === B[y - 1] ? pre[x - 1]![y - 1]! + 1 : Math.max(pre[x - 1]![y]!, pre[x]![y - 1]!);
  const suf = Array.from({ length: n + 2 }, () => new Array<number>(m + 2).fill(0));
  for (let x = n - 1; x >= 0; x--)
    for (let y = m - 1; y >= 0; y--)
      suf[x]![y] = A[x] === B[y] ? suf[x + 1]![y + 1]! + 1 : Math.max(suf[x + 1]![y]!, suf[x]![y + 1]!);
  const L = pre[n]![m]!;
  for (let y = 0; y <= m; y++) if (pre[i]![y]! + suf[i + 1]![y]! === L) return null;
  const js: number[] = [];
  for (let y = 0; y < m; y++) if (A[i] === B[y] && pre[i]![y]! + 1 + suf[i + 1]![y + 1]! === L) js.push(y);
  return js.length === 1 ? js[0]! : null;
}

const STATS: Record<string, number> = {};
const bump = (k: string) => {
  STATS[k] = (STATS[k] ?? 0) + 1;
};

interface Format {
  eol: '\n' | '\r\n';
  bom: boolean;
  final?: boolean;
}

/** The lines of a file as a read shows them (BOM dropped, CRLF as LF, a final newline ends the last line). */
function linesOf(disk: string): string[] {
  const t = disk.replace(/^\ufeff/, '').replaceAll('\r\n', '\n');
  if (t === '') return [];
  const ls = t.split('\n');
  if (t.endsWith('\n')) ls.pop();
  return ls;
}

async function runSequence(initial: string[], steps: Step[], fmt: Format): Promise<string | null> {
  let nextId = 0;
  const mk = (text: string): Line => ({ id: nextId++, text });
  let model: Line[] = initial.map(mk);
  const ever = new Map<number, Line>();
  const remember = () => {
    for (const l of model) if (!ever.has(l.id)) ever.set(l.id, l);
  };
  remember();
  const render = () =>
    fmt.final === false && model.length > 0 && model.at(-1)!.text !== ''
      ? `${fmt.bom ? '\ufeff' : ''}${model.map((l) => l.text).join(fmt.eol)}`
      : `${fmt.bom ? '\ufeff' : ''}${model.map((l) => `${l.text}${fmt.eol}`).join('')}`;
  const dir = tempDir({ 'f.txt': render() });
  const file = path.join(dir, 'f.txt');
  fs.mkdirSync(path.join(dir, 'd'));
  // Spellings of one path (normalised to /f.txt): reads and edits use them in turn.
  const SPELL = ['/f.txt', '/./f.txt', '//f.txt', '/d/../f.txt', 'f.txt', '/f.txt/'];
  let spell = 0;
  const P = () => SPELL[spell++ % SPELL.length]!;
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
  const surfaces: Surface[] = [];
  const log: string[] = [`initial: ${JSON.stringify(initial)} ${JSON.stringify(fmt)}`];
  let fresh = 0;
  let version = 0;
  const push = (kind: string, anchors: Shown[]) => {
    surfaces.push({ kind, anchors, text: model.map((l) => l.text), foreign: false, version });
    log.push(`  surface #${surfaces.length - 1} (${kind}): ${anchors.map((a) => a.anchor).join(' ')}`);
  };
  const read = async (offset?: number, limit?: number) => {
    const r = await ts.callTool('read_file', {
      path: P(),
      hashes: true,
      ...(offset ? { offset, limit } : {}),
    });
    if (!r.ok) throw new Error(r.error.message);
    const content = (r.data as { content: string }).content;
    if (content === '') return [];
    return content.split('\n').map((l) => {
      const anchor = l.slice(0, l.indexOf('|'));
      const n = Number(anchor.split('#')[0]);
      if (l.slice(l.indexOf('|') + 1) !== model[n - 1]!.text.replace(/\r$/, ''))
        throw new Error(
          `read shows ${JSON.stringify(l)} for line ${n} = ${JSON.stringify(model[n - 1]!.text)}`,
        );
      return { anchor, id: model[n - 1]!.id };
    });
  };
  for (const s of steps) {
    if (model.length === 0) break;
    if (s.k === 'whole') {
      log.push('whole read');
      const shown = await read();
      // A toolset that never saw this file shows the same anchors (no cached hashes of another text).
      const other = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
      const o = await other.callTool('read_file', { path: '/f.txt', hashes: true });
      if (!o.ok) throw new Error(o.error.message);
      const oc = (o.data as { content: string }).content;
      const oa = oc === '' ? [] : oc.split('\n').map((l) => l.slice(0, l.indexOf('|')));
      if (JSON.stringify(oa) !== JSON.stringify(shown.map((a) => a.anchor)))
        return `whole read shows ${JSON.stringify(shown.map((a) => a.anchor))}, a fresh toolset ${JSON.stringify(oa)}\n${log.join('\n')}`;
      push('whole read', shown);
    } else if (s.k === 'page') {
      const at = s.at % model.length;
      log.push(`page read ${at + 1}+${s.n}`);
      push(`page ${at + 1}+${s.n}`, await read(at + 1, s.n));
    } else if (s.k === 'change') {
      const at = s.at % model.length;
      const src = model[s.from % model.length]!;
      if (s.how === 'copyOver') {
        if (src.text === model[at]!.text) continue;
        model[at] = mk(src.text);
      } else if (s.how === 'insertCopy') model.splice(at, 0, mk(src.text));
      else if (s.how === 'delete') {
        if (model.length <= 3) continue;
        model.splice(at, 1);
      } else model[at] = mk(`// new ${fresh++}`);
      remember();
      log.push(
        `change ${s.how} at ${at + 1} (from ${(s.from % model.length) + 1})${s.tool ? ' [write_file]' : ''}`,
      );
      for (const sf of surfaces) sf.foreign = true;
      version++;
      if (s.tool) {
        const r = await ts.callTool('write_file', { path: '/f.txt', content: render() });
        if (!r.ok) throw new Error(r.error.message);
      } else fs.writeFileSync(file, render());
    } else {
      if (surfaces.length === 0) continue;
      // Build the operations and, for each anchor, the ids it may stand for.
      type Req = {
        op: Record<string, unknown>;
        kind: OpKind;
        accept: number[][];
        content?: string[];
        desc: string;
      };
      const reqs: Req[] = [];
      let ok = true;
      // Every anchor exactly as a surface of the current version showed it: a refusal is needless.
      let allCurrent = true;
      for (const p of s.ops) {
        const surf = surfaces[p.surface % surfaces.length]!;
        if (surf.anchors.length === 0) {
          ok = false;
          break;
        }
        const i0 = p.at % surf.anchors.length;
        if (surf.version !== version || p.mangle !== 'none') allCurrent = false;
        const anchorOf = (i: number) => {
          const a = surf.anchors[i]!;
          let str = a.anchor;
          const [num, h] = str.split('#') as [string, string];
          if (p.mangle === 'slip') str = `${Math.max(1, Number(num) + ((p.at % 5) - 2 || 1))}#${h}`;
          else if (p.mangle === 'short4') str = `${num}#${h.slice(0, 4)}`;
          return str;
        };
        const acceptFor = (i: number, str: string): number[] => {
          const a = surf.anchors[i]!;
          const ids = new Set<number>([a.id]);
          const h = str.split('#')[1]!;
          for (const sf of surfaces)
            for (const b of sf.anchors)
              if (b.anchor === str || (p.mangle !== 'none' && b.anchor.split('#')[1]!.startsWith(h)))
                ids.add(b.id);
          if (surf.foreign) {
            const img = forcedImage(
              surf.text,
              model.map((l) => l.text),
              Number(a.anchor.split('#')[0]) - 1,
            );
            if (img !== null) ids.add(-1000 - img); // a position, not an id
          }
          return [...ids];
        };
        const content = [`// e${nextId}.${reqs.length}`];
        if (p.op === 'replace_range' || p.op === 'delete_range') {
          const i1 = Math.min(surf.anchors.length - 1, i0 + p.span);
          if (i1 === i0) {
            ok = false;
            break;
          }
          const A = anchorOf(i0);
          const B = surf.anchors[i1]!.anchor;
          reqs.push({
            kind: p.op,
            op:
              p.op === 'replace_range'
                ? { op: p.op, start_hash: A, end_hash: B, content: content.join('\n') }
                : { op: p.op, start_hash: A, end_hash: B },
            accept: [acceptFor(i0, A), acceptFor(i1, B)],
            content: p.op === 'replace_range' ? content : [],
            desc: `${p.op} ${A}..${B} (${surf.kind}, ids ${surf.anchors[i0]!.id}..${surf.anchors[i1]!.id})`,
          });
        } else {
          const A = anchorOf(i0);
          reqs.push({
            kind: p.op,
            op:
              p.op === 'delete_line'
                ? { op: p.op, hash: A }
                : { op: p.op, hash: A, content: content.join('\n') },
            accept: [acceptFor(i0, A)],
            content: p.op === 'delete_line' ? [] : content,
            desc: `${p.op} ${A} (${surf.kind}, id ${surf.anchors[i0]!.id} "${ever.get(surf.anchors[i0]!.id)!.text}")`,
          });
        }
      }
      if (!ok || reqs.length === 0) continue;
      const before = fs.readFileSync(file, 'utf8');
      const what = `edit_lines [${reqs.map((r) => r.desc).join('; ')}]`;
      log.push(what);
      const r = await ts.callTool('edit_lines', {
        path: P(),
        operations: reqs.map((q) => q.op),
        sanity: 'off',
      });
      const after = fs.readFileSync(file, 'utf8');
      if (!r.ok) {
        if (!/^anchor_|^invalid_range_order$|^invalid_argument$/.test(r.error.code))
          return `${what}: refused with ${r.error.code}: ${r.error.message}\n${log.join('\n')}`;
        if (after !== before) return `${what}: refused but file changed\n${log.join('\n')}`;
        log.push(`  → refused ${r.error.code}: ${r.error.message.slice(0, 100)}`);
        bump(r.error.code);
        if (allCurrent && /^anchor_/.test(r.error.code)) {
          bump(`over-refusal ${r.error.code}`);
          if (process.env.RT44_OVER)
            return `over-refusal: ${what}: ${r.error.code}: ${r.error.message}\n${log.join('\n')}`;
        }
        const cands = (r.error.details as { candidates?: string[] } | undefined)?.candidates;
        if (cands?.length)
          push(
            'error candidates',
            cands.map((c) => {
              const a = c.slice(0, c.indexOf('|'));
              return { anchor: a, id: model[Number(a.split('#')[0]) - 1]!.id };
            }),
          );
        continue;
      }
      // Find a choice of accepted lines whose edit gives exactly the file now.
      const got = linesOf(after);
      const posOf = (x: number): number[] => {
        if (x <= -1000) return [-1000 - x];
        const at = model.findIndex((l) => l.id === x);
        if (at !== -1) return [at];
        // Known: the line shown is gone; a line with its text is taken (rt44-spelling, rt44-older-surface-copy).
        const t = ever.get(x)!.text.trimEnd();
        return model.flatMap((l, i) => (l.text.trimEnd() === t ? [i] : [])).map((i) => -2000 - i);
      };
      const choices = reqs.map((q) => q.accept.map((ids) => [...new Set(ids.flatMap(posOf))]));
      let found: Line[] | null = null;
      let usedKnown = false;
      const apply = (pos: number[][]): Line[] | null => {
        const spl: { start: number; end: number; block: string[] }[] = [];
        reqs.forEach((q, k) => {
          const [a, b] = pos[k]!;
          if (q.kind === 'replace_range' || q.kind === 'delete_range') {
            const lo = Math.min(a!, b!);
            const hi = Math.max(a!, b!);
            spl.push({ start: lo, end: hi + 1, block: q.content! });
          } else if (q.kind === 'replace_line') spl.push({ start: a!, end: a! + 1, block: q.content! });
          else if (q.kind === 'delete_line') spl.push({ start: a!, end: a! + 1, block: [] });
          else if (q.kind === 'insert_after') spl.push({ start: a! + 1, end: a! + 1, block: q.content! });
          else spl.push({ start: a!, end: a!, block: q.content! });
        });
        spl.sort((x, y) => x.start - y.start || x.end - y.end);
        for (let i = 1; i < spl.length; i++) if (spl[i]!.start < spl[i - 1]!.end) return null;
        const out: Line[] = [];
        let cur = 0;
        for (const x of spl) {
          out.push(...model.slice(cur, x.start));
          for (const t of x.block) out.push({ id: -1, text: t });
          cur = x.end;
        }
        out.push(...model.slice(cur));
        return out;
      };
      const search = (k: number, pos: number[][], known: boolean): void => {
        if (found) return;
        if (k === reqs.length) {
          const m = apply(pos);
          if (m && m.length === got.length && m.every((l, i) => l.text === got[i])) {
            found = m;
            usedKnown = known;
          }
          return;
        }
        const lists = choices[k]!;
        const combos: number[][] =
          lists.length === 1
            ? lists[0]!.map((a) => [a])
            : lists[0]!.flatMap((a) => lists[1]!.map((b) => [a, b]));
        // exact choices first
        combos.sort((x, y) => Number(x.some((v) => v <= -2000)) - Number(y.some((v) => v <= -2000)));
        for (const c of combos) {
          if (found) return;
          const kn = c.some((v) => v <= -2000);
          search(k + 1, [...pos, c.map((v) => (v <= -2000 ? -2000 - v : v))], known || kn);
        }
      };
      search(0, [], false);
      if (!found) {
        const shownNow = reqs.map((q) =>
          q.accept.map((ids) =>
            ids.map((x) =>
              x <= -1000 ? `pos${-1000 - x + 1}` : `line ${model.findIndex((l) => l.id === x) + 1}`,
            ),
          ),
        );
        return `${what}: success matches no edit of the lines shown (${JSON.stringify(shownNow)})\nresult diff:\n${(r.data as { diff: string }).diff}\nfile before:\n${JSON.stringify(linesOf(before))}\nafter:\n${JSON.stringify(got)}\n${log.join('\n')}`;
      }
      if (usedKnown) bump('knownSameTextAfterGone');
      {
        // The result's anchors are those a read of the new file shows (docs/tools.md).
        const other = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
        const o = await other.callTool('read_file', { path: '/f.txt', hashes: true });
        if (!o.ok) throw new Error(o.error.message);
        const oc = (o.data as { content: string }).content;
        const oa = oc === '' ? [] : oc.split('\n').map((l) => l.slice(0, l.indexOf('|')));
        for (const mm of (r.data as { diff: string }).diff.matchAll(/^[ +](\d+)(#[0-9a-f]+)\|/gm))
          if (oa[Number(mm[1]) - 1] !== `${mm[1]}${mm[2]}`)
            return `${what}: result shows ${mm[1]}${mm[2]}, a read shows ${oa[Number(mm[1]) - 1]}\n${(r.data as { diff: string }).diff}\n${log.join('\n')}`;
      }
      bump('ok');
      version++;
      model = (found as Line[]).map((l) => (l.id === -1 ? mk(l.text) : l));
      remember();
      // The model's text keeps the disk's exact characters (trailing whitespace of untouched lines).
      const diff = (r.data as { diff: string }).diff;
      push(
        'edit_lines result',
        [...diff.matchAll(/^[ +](\d+)(#[0-9a-f]+)\|/gm)].map((mm) => ({
          anchor: `${mm[1]}${mm[2]}`,
          id: model[Number(mm[1]) - 1]!.id,
        })),
      );
    }
  }
  return null;
}

const initial = fc.array(
  fc.oneof(
    { arbitrary: fc.constantFrom(...ALPHA), weight: 4 },
    { arbitrary: fc.constantFrom('// u1', '// u2', '// u3', '// u4', 'x = f(1);', 'x = f(2);'), weight: 1 },
  ),
  { minLength: 4, maxLength: 24 },
);

describe('rt44: multi-operation edit_lines calls keep every anchor on its line', () => {
  it('generated sequences (hidden-id oracle)', async () => {
    await fc.assert(
      fc.asyncProperty(
        initial,
        fc.array(step, { minLength: 2, maxLength: 12 }),
        fc.record({
          eol: fc.constantFrom('\n' as const, '\r\n' as const),
          bom: fc.boolean(),
          final: fc.boolean(),
        }),
        async (init, steps, fmt) => {
          const bad = await runSequence(init, [{ k: 'whole' }, ...steps], fmt);
          expect(bad).toBeNull();
        },
      ),
      {
        numRuns: Number(process.env.RT44_RUNS ?? 150),
        ...(process.env.RT44_SEED ? { seed: Number(process.env.RT44_SEED) } : {}),
      },
    );
    if (process.env.RT44_STATS) console.log(JSON.stringify(STATS));
  }, 600_000);
});
