import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApprovalToolset } from '../src/approval/approval-toolset.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { floorEdit, nonced, type Paired, paired, readingApproval } from './pairs.js';

/**
 * The "cliffs" table: each input that used to fall off a cliff (or crash), at
 * each size, as the median of interleaved pair ratios against the no-fsync floor
 * (read + SHA-256 + replace + temp write + rename) doing the same edit.
 */
export interface Cliff {
  name: string;
  size: number;
  result: Paired;
  target: string;
}

// The shipped limits but the file-size cap (a 1M-line file with as many lines inserted
// passes 64 MiB). A raised readMaxChars would put the whole new file in patch_file's
// result (latest_file_state carries content up to it), a cost no default setup pays.
const LIMITS = { maxFileBytes: 1 << 30 };

const sourceLine = (i: number) => `  const value${i} = compute(${i}, "item-${i}");`;
const sourceFile = (n: number) =>
  `${Array.from({ length: n }, (_, i) => (i % 10 === 9 ? '}' : sourceLine(i))).join('\n')}\n`;

interface Case {
  name: string;
  target: string;
  /** The file before every call. */
  text: (n: number) => string;
  /** What the floor replaces (exact text) with what. */
  floor: (n: number) => [string, string];
  /** The tool call; `prepare` runs untimed before it (after the file is reset). */
  call: (n: number, ctx: Ctx) => () => Promise<unknown>;
  prepare?: (n: number, ctx: Ctx) => Promise<void>;
  mayFail?: boolean;
}

interface Ctx {
  toolset: FileSystemToolset;
  gated: ApprovalToolset;
  state: Record<string, string>;
  /** The file's bytes as reset for this call (see `nonced`). */
  current: () => string;
}

/** A file of `}` lines with one block of k lines carrying trailing spaces, ending in a distinctive line. */
function braceFile(
  n: number,
  k: number,
): { text: string; block: string; needle: string; replacement: string } {
  const mid = Math.floor(n / 2);
  const lines = Array.from({ length: n }, () => '}');
  for (let j = 0; j < k; j++) lines[mid + j] = j === k - 1 ? 'done(); ' : '} ';
  const block = lines.slice(mid, mid + k).join('\n');
  const needle = [...Array.from({ length: k - 1 }, () => '}'), 'done();'].join('\n');
  return {
    text: `${lines.join('\n')}\n`,
    block,
    needle,
    replacement: needle.replace('done();', 'finished();'),
  };
}

const mid = (n: number) => Math.floor(n / 2) + 1;
const oneLine = (n: number): [string, string] => [
  sourceLine(mid(n)),
  sourceLine(mid(n)).replace('compute(', 'compute2('),
];
const inserted = (n: number) => Array.from({ length: n }, (_, i) => `inserted ${i}`).join('\n');

const fuzzy = (k: number): Case => ({
  name: `edit_file fuzzy (trailing-whitespace slip), file of } lines, old_string of ${k} lines`,
  target: '≤ 2× floor',
  text: (n) => braceFile(n, k).text,
  floor: (n) => {
    const b = braceFile(n, k);
    return [b.block, b.replacement];
  },
  call: (n, { toolset }) => {
    const b = braceFile(n, k);
    return () =>
      toolset.callTool('edit_file', { path: '/f.txt', old_string: b.needle, new_string: b.replacement });
  },
});

const quoted = (n: number) =>
  `${Array.from({ length: n }, (_, i) => (i % 10 === 9 ? '}' : `  say('item-${i}', "x");`)).join('\n')}\n`;

export const CASES: Case[] = [
  {
    name: 'edit_file exact, one line (ordinary edit)',
    target: '≤ 2× floor',
    text: sourceFile,
    floor: oneLine,
    call: (n, { toolset }) => {
      const [o, w] = oneLine(n);
      return () => toolset.callTool('edit_file', { path: '/f.txt', old_string: o, new_string: w });
    },
  },
  fuzzy(100),
  fuzzy(1000),
  {
    name: 'edit_file smart-quote slip (3 lines)',
    target: '≤ 2× floor',
    text: quoted,
    floor: (n) => {
      const m = mid(n) - 1;
      const o = [m, m + 1, m + 2].map((i) => `  say('item-${i}', "x");`).join('\n');
      return [o, o.replace('item-', 'thing-')];
    },
    call: (n, { toolset }) => {
      const m = mid(n) - 1;
      const o = [m, m + 1, m + 2].map((i) => `  say('item-${i}', "x");`).join('\n');
      const curly = o.replace(/'([^']*)'/g, '\u2018$1\u2019');
      return () =>
        toolset.callTool('edit_file', {
          path: '/f.txt',
          old_string: curly,
          new_string: o.replace('item-', 'thing-'),
        });
    },
  },
  {
    name: 'edit_file not found (closest-region search)',
    target: '≤ 2× floor',
    text: sourceFile,
    floor: (n) => [`${sourceLine(mid(n))}\nnot there`, 'x'],
    call: (n, { toolset }) => {
      const old_string = `${sourceLine(mid(n)).replace('compute', 'kompute')}\n  missing();\n  return nothing;`;
      return () => toolset.callTool('edit_file', { path: '/f.txt', old_string, new_string: 'x' });
    },
    mayFail: true,
  },
  {
    name: 'edit_file inserting as many lines as the file has',
    target: '≤ 2× floor',
    text: sourceFile,
    floor: (n) => [`${sourceLine(mid(n))}\n`, `${sourceLine(mid(n))}\n${inserted(n)}\n`],
    call: (n, { toolset }) => {
      // Arguments built once, outside the timed call, as the floor's strings are.
      const old_string = `${sourceLine(mid(n))}\n`;
      const new_string = `${sourceLine(mid(n))}\n${inserted(n)}\n`;
      return () => toolset.callTool('edit_file', { path: '/f.txt', old_string, new_string });
    },
  },
  {
    name: 'edit_lines inserting as many lines as the file has',
    target: '≤ 2× floor',
    text: sourceFile,
    floor: (n) => [`${sourceLine(mid(n))}\n`, `${sourceLine(mid(n))}\n${inserted(n)}\n`],
    prepare: async (n, { toolset, state }) => {
      const read = await toolset.callTool('read_file', {
        path: '/f.txt',
        offset: mid(n) + 1,
        limit: 1,
        hashes: true,
      });
      state.anchor = String((read as { data: { content: string } }).data.content).split('|')[0]!;
    },
    call: (n, { toolset, state }) => {
      const content = inserted(n);
      return () =>
        toolset.callTool('edit_lines', {
          path: '/f.txt',
          operations: [{ op: 'insert_after', hash: state.anchor!, content }],
        });
    },
  },
  {
    name: 'patch_file inserting as many lines as the file has',
    target: '≤ 2× floor',
    text: sourceFile,
    floor: (n) => [`${sourceLine(mid(n))}\n`, `${sourceLine(mid(n))}\n${inserted(n)}\n`],
    prepare: async (_n, { state, current }) => {
      state.sha = createHash('sha256').update(current()).digest('hex');
    },
    call: (n, { toolset, state }) => {
      const added = inserted(n)
        .split('\n')
        .map((l) => `+${l}`)
        .join('\n');
      const diff = `@@ -${mid(n) + 1},1 +${mid(n) + 1},${n + 1} @@\n ${sourceLine(mid(n))}\n${added}\n`;
      return () =>
        toolset.callTool('patch_file', { path: '/f.txt', unified_diff: diff, base_sha256: state.sha! });
    },
  },
  {
    name: 'approval write_file changing one line (payload + write)',
    target: '≤ 3× floor',
    text: sourceFile,
    floor: oneLine,
    prepare: async (n, { state, current }) => {
      const [o, w] = oneLine(n);
      state.content = current().replace(o, w);
    },
    call:
      (_n, { gated, state }) =>
      () =>
        gated.callTool('write_file', { path: '/f.txt', content: state.content! }),
  },
  {
    name: 'approval edit_file, one line (payload + write)',
    target: '≤ 3× floor',
    text: sourceFile,
    floor: oneLine,
    call: (n, { gated }) => {
      const [o, w] = oneLine(n);
      return () => gated.callTool('edit_file', { path: '/f.txt', old_string: o, new_string: w });
    },
  },
  {
    name: 'approval write_file, 1% of lines changed (payload diff + write)',
    target: '≤ 3× floor',
    text: sourceFile,
    floor: oneLine,
    prepare: async (_n, { state, current }) => {
      state.content = current()
        .split('\n')
        .map((l, i) => (i % 100 === 50 ? `${l} // changed` : l))
        .join('\n');
    },
    call:
      (_n, { gated, state }) =>
      () =>
        gated.callTool('write_file', { path: '/f.txt', content: state.content! }),
  },
];

export async function benchCliffs(sizes: number[], pairsFor: (n: number) => number): Promise<Cliff[]> {
  const out: Cliff[] = [];
  // BENCH_ONLY=text runs only the cases whose name contains it (for profiling one row).
  const only = process.env.BENCH_ONLY;
  for (const n of sizes) {
    for (const c of CASES.filter((x) => !only || x.name.includes(only))) {
      const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cliff-')));
      const file = path.join(dir, 'f.txt');
      const text = c.text(n);
      const toolset = new FileSystemToolset(
        Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }),
        {
          limits: LIMITS,
        },
      );
      const gatedInner = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
        limits: LIMITS,
      });
      let run = 0;
      let bytes = text;
      const ctx: Ctx = {
        toolset,
        // Approved after the diff is read, as a person's screen reads it (a policy would not
        // read it, and the diff's text would then never be written).
        gated: new ApprovalToolset(gatedInner, { approve: readingApproval() }),
        state: {},
        current: () => bytes,
      };
      const [from, to] = c.floor(n);
      const call = c.call(n, ctx);
      const reset = () => {
        bytes = nonced(text, run++);
        fs.writeFileSync(file, bytes);
      };
      const result = await paired(
        pairsFor(n),
        () => floorEdit(file, from, to, false),
        call,
        async () => {
          reset();
          await c.prepare?.(n, ctx);
        },
        // The tools sync the file and its directory: the fsync floor (same durability) is shown beside.
        {
          toolMayFail: c.mayFail ?? false,
          secondBaseline: () => floorEdit(file, from, to, true),
          // A few-ms call is timed once the JIT has compiled its path, as in a session that has made a
          // few dozen calls (five warm-up pairs left the first pairs timing baseline-tier code: medians
          // 0.3-0.6 ms higher at 10k lines); a long one compiles while it runs. Warm-up and pairs go
          // by time, not by line count: a 3 ms call at 100k lines got 1 warm-up and 11 pairs, and
          // its median moved by 0.5× between runs (1.7× typical, 2.2× when the first pairs ran cold).
          warmup: Number(process.env.WU ?? 1),
          warmupMs: Number(process.env.WMS ?? 150),
          measureMs: Number(process.env.MMS ?? 600),
          maxPairs: Number(process.env.MP ?? 61),
        },
      );
      out.push({ name: c.name, size: n, result, target: c.target });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

/** A time as the table shows it: a few-ms call to a tenth of a ms (rounded to whole ms it read "2 / 1" for 1.7×). */
const ms = (t: number) => t.toFixed(t < 10 ? 1 : 0);

/** One row per case, one column per size: ratio (tool ms / floor ms). */
export function formatCliffs(cliffs: Cliff[]): string {
  const sizes = [...new Set(cliffs.map((c) => c.size))];
  const names = [...new Set(cliffs.map((c) => c.name))];
  const head = `| case: ratio to the no-fsync floor (tool / floor ms), and to the fsync floor; medians of interleaved runs | ${sizes.map((s) => `${s.toLocaleString('en')} lines`).join(' | ')} | target (no-fsync floor) |`;
  const lines = [head, `|---|${sizes.map(() => '---:').join('|')}|---|`];
  for (const name of names) {
    const cells = sizes.map((s) => {
      const c = cliffs.find((x) => x.name === name && x.size === s);
      if (!c) return '';
      const fsync = c.result.second ? `; ${c.result.second.ratio.toFixed(2)}× fsync floor` : '';
      return `${c.result.ratio.toFixed(2)}× (${ms(c.result.toolMs)} / ${ms(c.result.baselineMs)} ms)${fsync}`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} | ${cliffs.find((x) => x.name === name)!.target} |`);
  }
  return lines.join('\n');
}
