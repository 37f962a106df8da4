// edit_lines against a whole-file splice model: any file (LF, CRLF, mixed, lone CR inside lines, BOM, no final
// newline, one line, U+2028, non-BMP) and any batch of non-overlapping operations. The written file must equal
// the model, lines_after must count the written file's lines, and every anchor in the result diff must name
// its line in a follow-up edit_lines call.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

type El = { text: string; eol: string };

function parse(buf: string): { bom: boolean; els: El[] } {
  const bom = buf.startsWith('\uFEFF');
  const body = bom ? buf.slice(1) : buf;
  if (body === '') return { bom, els: [] };
  const segs = body.split('\n');
  const final = body.endsWith('\n');
  if (final) segs.pop();
  const els = segs.map((s, k) => {
    const last = k === segs.length - 1;
    if (last && !final) return { text: s, eol: '' };
    if (s.endsWith('\r')) return { text: s.slice(0, -1), eol: '\r\n' };
    return { text: s, eol: '\n' };
  });
  return { bom, els };
}
const render = (bom: boolean, els: El[]) => (bom ? '\uFEFF' : '') + els.map((e) => e.text + e.eol).join('');
const countLines = (buf: string) => parse(buf).els.length;

function dominant(els: El[]) {
  const crlf = els.filter((e) => e.eol === '\r\n').length;
  const lf = els.filter((e) => e.eol === '\n').length;
  return crlf > lf ? '\r\n' : '\n';
}
function contentLines(c: string): string[] {
  let t = c.replace(/\r\n/g, '\n');
  if (t.endsWith('\n')) t = t.slice(0, -1);
  return t.split('\n');
}

type Op = { op: string; i: number; j: number; content: string };

function model(bom: boolean, els: El[], ops: Op[]): string {
  const e = dominant(els);
  // apply from the bottom so indices stay valid
  let out = els.map((x) => ({ ...x }));
  for (const o of [...ops].sort((a, b) => b.i - a.i)) {
    const C = () => contentLines(o.content).map((text) => ({ text, eol: e }));
    switch (o.op) {
      case 'replace_line':
      case 'replace_range': {
        const c = C();
        // a block that ends at the file's last line takes that line's ending (the file's final newline or none)
        if (o.j === els.length - 1) c[c.length - 1]!.eol = out[o.j]!.eol;
        out = [...out.slice(0, o.i), ...c, ...out.slice(o.j + 1)];
        break;
      }
      case 'insert_after': {
        const c = C();
        if (out[o.i]!.eol === '') {
          out[o.i]!.eol = e;
          c[c.length - 1]!.eol = '';
        }
        out = [...out.slice(0, o.i + 1), ...c, ...out.slice(o.i + 1)];
        break;
      }
      case 'insert_before':
        out = [...out.slice(0, o.i), ...C(), ...out.slice(o.i)];
        break;
      case 'delete_line':
      case 'delete_range':
        out.splice(o.i, o.j - o.i + 1);
        break;
    }
  }
  return render(bom, out);
}

const lineText = fc.oneof(
  fc.constantFrom(
    'a',
    'b',
    '',
    '}',
    '  x',
    'x\ry',
    '\r',
    'q\u2028r',
    '😀',
    'é',
    'dup',
    'dup',
    '\t',
    'x\r\ry',
    ' ',
  ),
  fc
    .string({ unit: fc.constantFrom('a', ' ', '\r', '\u2028', '𝄞', '\u200b', 'z'), maxLength: 5 })
    .filter((s) => !s.endsWith('\r')),
);
const fileArb = fc.record({
  texts: fc.array(lineText, { minLength: 1, maxLength: 14 }),
  eolMode: fc.constantFrom('lf', 'crlf', 'mixed'),
  mixedBits: fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
  final: fc.boolean(),
  bom: fc.boolean(),
});
const contentArb = fc.oneof(
  fc.constantFrom(
    '',
    '\n',
    '\n\n',
    'N1',
    'N1\nN2',
    'N1\r\nN2\r\n',
    'N\rM',
    'N1\n\n',
    '\r\n',
    'Z\u2028W',
    '😀\n',
  ),
  fc.array(fc.constantFrom('c', '', '}', 'c\r\n', 'c\r', '𝄞'), { maxLength: 4 }).map((a) => a.join('\n')),
);
const opsArb = fc.array(
  fc.record({
    op: fc.constantFrom(
      'replace_line',
      'insert_after',
      'insert_before',
      'delete_line',
      'replace_range',
      'delete_range',
    ),
    pos: fc.nat(),
    len: fc.integer({ min: 1, max: 3 }),
    content: contentArb,
  }),
  { minLength: 1, maxLength: 4 },
);

function buildFile(f: {
  texts: string[];
  eolMode: string;
  mixedBits: boolean[];
  final: boolean;
  bom: boolean;
}) {
  const els: El[] = f.texts.map((text, k) => {
    const last = k === f.texts.length - 1;
    const crlf = f.eolMode === 'crlf' || (f.eolMode === 'mixed' && f.mixedBits[k]);
    let eol = crlf ? '\r\n' : '\n';
    if (last && !f.final) eol = '';
    return { text, eol };
  });
  return render(f.bom, els);
}

async function withDir<T>(fn: (dir: string, ts: FileSystemToolset) => Promise<T>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-fdio-el-'));
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { readMaxLines: 1_000_000, readMaxChars: 50_000_000 },
  });
  try {
    return await fn(dir, ts);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Lay operations out on disjoint footprints with a gap between them; returns [] when they do not fit. */
function layout(n: number, raw: { op: string; pos: number; len: number; content: string }[]): Op[] {
  const ops: Op[] = [];
  let next = 0;
  for (const r of raw) {
    const range = r.op.endsWith('range');
    const span = range ? Math.max(2, r.len) : 1;
    const start = next + (r.pos % 3);
    const end = start + span - 1;
    if (end >= n) break;
    ops.push({ op: r.op, i: start, j: end, content: r.content });
    next = end + 2;
  }
  return ops;
}

async function runCase(dir: string, ts: FileSystemToolset, text: string, ops: Op[]) {
  fs.writeFileSync(path.join(dir, 'f.txt'), text);
  const rd: any = await ts.callTool('read_file', { path: '/f.txt', hashes: true });
  if (!rd.ok) throw new Error(`read refused ${rd.error.code}`);
  const shown = (rd.data.content as string).split('\n');
  const anchors = shown.map((l) => l.slice(0, l.indexOf('|')));
  const operations = ops.map((o) => {
    const x: any = { op: o.op };
    if (o.op.endsWith('range')) Object.assign(x, { start_hash: anchors[o.i], end_hash: anchors[o.j] });
    else x.hash = anchors[o.i];
    if (!o.op.startsWith('delete')) x.content = o.content;
    return x;
  });
  const res: any = await ts.callTool('edit_lines', { path: '/f.txt', operations, sanity: 'off' });
  return { res, shown, operations };
}

describe('edit_lines equals the whole-file splice model', () => {
  it('random files × random batches', async () => {
    let ran = 0;
    await withDir(async (dir, ts) => {
      await fc.assert(
        fc.asyncProperty(fileArb, opsArb, async (f, raw) => {
          const text = buildFile(f);
          const { bom, els } = parse(text);
          if (els.length !== f.texts.length) return; // a text piece made its own line break
          const ops = layout(els.length, raw);
          if (ops.length === 0) return;
          ran++;
          const { res, shown } = await runCase(dir, ts, text, ops);
          const ctx = JSON.stringify({ text, ops, shown });
          if (!res.ok) throw new Error(`refused ${res.error.code}: ${res.error.message} ${ctx}`);
          const written = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
          const want = model(bom, els, ops);
          expect(written, ctx).toBe(want);
          expect(res.data.lines_before, ctx).toBe(els.length);
          expect(res.data.lines_after, ctx).toBe(countLines(written));
          expect(res.data.net_line_change, ctx).toBe(res.data.lines_after - res.data.lines_before);
          // anchors in the result diff name their lines
          const after = parse(written).els;
          for (const dl of (res.data.diff as string).split('\n')) {
            const m = /^[ +](\d+)#([0-9a-f]+)\|(.*)$/s.exec(dl);
            if (!m) continue;
            const n = Number(m[1]);
            expect(after[n - 1]?.text, `${ctx} diff line ${JSON.stringify(dl)}`).toBe(m[3]);
            const dry: any = await ts.callTool('edit_lines', {
              path: '/f.txt',
              operations: [{ op: 'replace_line', hash: `${m[1]}#${m[2]}`, content: 'MARK' }],
              sanity: 'off',
            });
            if (!dry.ok)
              throw new Error(
                `anchor ${m[1]}#${m[2]} refused: ${dry.error.code} ${dry.error.message} ${ctx}`,
              );
            const w2 = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
            const want2 = model(parse(written).bom, after, [
              { op: 'replace_line', i: n - 1, j: n - 1, content: 'MARK' },
            ]);
            expect(w2, `${ctx} follow-up on ${dl}`).toBe(want2);
            fs.writeFileSync(path.join(dir, 'f.txt'), written);
            break; // one follow-up per case (each rewrites the file)
          }
        }),
        { numRuns: 1500 },
      );
    });
    console.log('cases run', ran);
    expect(ran).toBeGreaterThan(500);
  }, 300_000);

  it('a 200k-line block replacing a middle line of a CRLF file without final newline', async () => {
    await withDir(async (dir, ts) => {
      const text = 'head\r\nmid\r\ntail';
      const block = Array.from({ length: 200_000 }, (_, k) => `L${k}`).join('\r\n');
      const ops: Op[] = [{ op: 'replace_line', i: 1, j: 1, content: `${block}\r\n` }];
      const { res } = await runCase(dir, ts, text, ops);
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
      const written = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
      const p = parse(text);
      expect(written === model(p.bom, p.els, ops)).toBe(true);
      expect(res.data.lines_after).toBe(200_002);
      expect(res.data.lines_after).toBe(countLines(written));
    });
  }, 120_000);

  it('a 200k-line insert_after the last line of an LF file without final newline', async () => {
    await withDir(async (dir, ts) => {
      const text = 'a\nb';
      const block = `${Array.from({ length: 200_000 }, (_, k) => `L${k}`).join('\n')}\n\n`;
      const ops: Op[] = [{ op: 'insert_after', i: 1, j: 1, content: block }];
      const { res } = await runCase(dir, ts, text, ops);
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
      const written = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
      const p = parse(text);
      const want = model(p.bom, p.els, ops);
      expect(written.length).toBe(want.length);
      expect(written === want).toBe(true);
      expect(res.data.lines_after).toBe(countLines(written));
    });
  }, 120_000);
});
