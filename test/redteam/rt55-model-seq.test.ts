// rt55: generated sequences of every file tool (and undo) over a big file and a second
// file, from two toolsets on one directory, some calls through ApprovalToolset, checked
// after every step against a model of the bytes, modes and each toolset's undo journal.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalToolset, FileSystemToolset } from '../../src/index.js';
import {
  applyStrict,
  bigText,
  gatedOn,
  MiB,
  SHAPES,
  type Shown,
  sha,
  tmp,
  toolsetOn,
  WHOLE_READ,
} from './rt55-helpers.js';

type Name = 'a.txt' | 'b.txt';
interface FileModel {
  data: Buffer;
  mode: number;
}
interface Entry {
  path: Name;
  fromPath?: Name;
  before: FileModel | undefined;
  afterSha: string | null;
}

const NEW = ['X', 'é', '😀', '$&$1$$', 'a\nb', '\u2028', 'ÿ', 'tab\tx', "$'$`"];
const TOKENS = ['ab', 'k', 'lm', 'op', 'd=', ';', 'é', '😀', 'zz'];
const REPS = ['', 'Q', '$&', '\n', 'ñ', 'xyz', '$$'];

const op = fc.oneof(
  fc.record({
    kind: fc.constant('read' as const),
    file: fc.constantFrom<Name>('a.txt', 'b.txt'),
    hashes: fc.boolean(),
    who: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('edit' as const),
    file: fc.constantFrom<Name>('a.txt', 'b.txt'),
    marker: fc.nat(),
    text: fc.constantFrom(...NEW),
    who: fc.nat(3),
    base: fc.nat(2),
  }),
  fc.record({
    kind: fc.constant('replace_all' as const),
    file: fc.constantFrom<Name>('a.txt', 'b.txt'),
    token: fc.constantFrom(...TOKENS),
    rep: fc.constantFrom(...REPS),
    who: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('lines' as const),
    file: fc.constantFrom<Name>('a.txt', 'b.txt'),
    line: fc.nat(),
    who: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('patch' as const),
    file: fc.constantFrom<Name>('a.txt', 'b.txt'),
    marker: fc.nat(),
    who: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('write' as const),
    file: fc.constantFrom<Name>('a.txt', 'b.txt'),
    cut: fc.nat(),
    grow: fc.boolean(),
    who: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('copy' as const),
    from: fc.constantFrom<Name>('a.txt', 'b.txt'),
    overwrite: fc.boolean(),
    who: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    from: fc.constantFrom<Name>('a.txt', 'b.txt'),
    overwrite: fc.boolean(),
    who: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    file: fc.constantFrom<Name>('a.txt', 'b.txt'),
    who: fc.nat(3),
  }),
  fc.record({ kind: fc.constant('undo' as const), who: fc.nat(3) }),
  fc.record({ kind: fc.constant('undo' as const), who: fc.nat(3) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const other = (n: Name): Name => (n === 'a.txt' ? 'b.txt' : 'a.txt');
const shownText = (buf: Buffer) =>
  buf
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .replaceAll('\r\n', '\n')
    .replace(/\n$/, '');
const eolOf = (t: string) => (t.includes('\r\n') ? '\r\n' : '\n');

/** Lines of a text with their terminators. */
function rawLines(t: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < t.length) {
    const nl = t.indexOf('\n', at);
    if (nl === -1) {
      out.push(t.slice(at));
      break;
    }
    out.push(t.slice(at, nl + 1));
    at = nl + 1;
  }
  return out;
}
const splitTerm = (l: string): [string, string] =>
  l.endsWith('\r\n') ? [l.slice(0, -2), '\r\n'] : l.endsWith('\n') ? [l.slice(0, -1), '\n'] : [l, ''];

async function runSequence(shapeIndex: number, size: number, ops: Op[], log: string[]): Promise<void> {
  const [, shape] = SHAPES[shapeIndex]!;
  const text0 = bigText(size, shape, size + shapeIndex);
  const dir = tmp({ 'a.txt': text0 });
  fs.chmodSync(path.join(dir, 'a.txt'), 0o640);
  const markers = [...text0.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]);
  const A = gatedOn(dir, { limits: WHOLE_READ });
  const B = gatedOn(dir, { limits: WHOLE_READ });
  const sets: Array<{ plain: FileSystemToolset; gated: ApprovalToolset; shown: Shown[]; journal: Entry[] }> =
    [
      { plain: A.toolset, gated: A.gated, shown: A.shown, journal: [] },
      { plain: B.toolset, gated: B.gated, shown: B.shown, journal: [] },
    ];
  const model = new Map<Name, FileModel>([['a.txt', { data: Buffer.from(text0), mode: 0o640 }]]);
  const actualMode = (n: Name) => fs.statSync(path.join(dir, n)).mode & 0o7777;

  const check = (where: string) => {
    for (const n of ['a.txt', 'b.txt'] as Name[]) {
      const m = model.get(n);
      const p = path.join(dir, n);
      if (!m) {
        expect(fs.existsSync(p), `${where}: ${n} should be missing`).toBe(false);
        continue;
      }
      expect(fs.existsSync(p), `${where}: ${n} should exist`).toBe(true);
      const got = fs.readFileSync(p);
      if (!got.equals(m.data)) {
        expect.fail(
          `${where}: ${n} bytes differ (${got.length} vs model ${m.data.length}, sha ${sha(got).slice(0, 8)} vs ${sha(m.data).slice(0, 8)})`,
        );
      }
      expect(actualMode(n), `${where}: ${n} mode`).toBe(m.mode);
    }
    const tmpLeft = fs.readdirSync(dir).filter((f) => f !== 'a.txt' && f !== 'b.txt');
    expect(tmpLeft, `${where}: stray files`).toEqual([]);
  };

  for (const [i, o] of ops.entries()) {
    const set = sets[o.who % 2]!;
    // calls from `who` 0 and 1 go through the approval layer, 2 and 3 straight to the toolset
    const viaGate = o.who < 2;
    const tool = viaGate ? set.gated : set.plain;
    const shownBefore = set.shown.length;
    const where = `step ${i} ${JSON.stringify(o)}`;
    log.push(where);
    const call = (name: string, args: Record<string, unknown>) => tool.callTool(name, args) as Promise<any>;
    const lastShown = () => (viaGate && set.shown.length > shownBefore ? set.shown.at(-1)! : undefined);
    /** A change that succeeded: the model moves, the journal records, the diff shown must be the change. */
    const changed = (
      entry: Entry,
      next: Map<Name, FileModel | undefined>,
      diffOf?: { old: Buffer; path: Name },
    ) => {
      for (const [n, v] of next) {
        if (v) model.set(n, v);
        else model.delete(n);
      }
      set.journal.push(entry);
      const s = lastShown();
      if (viaGate) expect(s, `${where}: approval asked`).toBeDefined();
      if (s && diffOf && s.payload.unifiedDiff !== undefined) {
        const before = diffOf.old.toString('utf8');
        const after = model.get(diffOf.path)!.data.toString('utf8');
        expect(applyStrict(before, s.payload.unifiedDiff) === after, `${where}: diff shown != written`).toBe(
          true,
        );
      }
      if (s && s.payload.baseSha256 !== undefined && diffOf)
        expect(s.payload.baseSha256, `${where}: base shown`).toBe(sha(diffOf.old));
    };

    if (o.kind === 'read') {
      const m = model.get(o.file);
      const r = await call('read_file', { path: `/${o.file}`, hashes: o.hashes });
      if (!m) expect(r.ok, where).toBe(false);
      else {
        expect(r.ok, `${where} ${JSON.stringify(r.error)?.slice(0, 300)}`).toBe(true);
        expect(r.data.sha256, where).toBe(sha(m.data));
        const content = o.hashes
          ? r.data.content
              .split('\n')
              .map((l: string) => l.replace(/^\d+#[0-9a-f]+\|/, ''))
              .join('\n')
          : r.data.content;
        expect(content === shownText(m.data), `${where}: content`).toBe(true);
      }
    } else if (o.kind === 'edit' || o.kind === 'replace_all') {
      const m = model.get(o.file);
      const oldS = o.kind === 'edit' ? markers[o.marker % markers.length]! : o.token;
      const newS = o.kind === 'edit' ? o.text : o.rep;
      // base_sha256: none, the current one, or one of no version of the file
      const base = o.kind === 'edit' ? o.base : 0;
      const r = await call('edit_file', {
        path: `/${o.file}`,
        old_string: oldS,
        new_string: newS,
        ...(o.kind === 'replace_all' ? { replace_all: true } : {}),
        ...(base === 1 && m ? { base_sha256: sha(m.data) } : {}),
        ...(base === 2 ? { base_sha256: sha(`${text0}never`) } : {}),
      });
      const t = m?.data.toString('utf8');
      if (base === 2) {
        expect(r.ok, `${where}: a stale base must be refused`).toBe(false);
        if (m && t!.split(oldS).length === 2) expect(r.error.code, where).toBe('state_mismatch');
      } else if (!m || !t!.includes(oldS)) {
        expect(r.ok, `${where}: should fail`).toBe(false);
      } else {
        const hits = t!.split(oldS).length - 1;
        if (o.kind === 'edit' && hits > 1) {
          expect(r.ok, where).toBe(false);
        } else {
          expect(r.ok, `${where} ${JSON.stringify(r.error)?.slice(0, 300)}`).toBe(true);
          const rep = newS.replaceAll('\n', eolOf(t!));
          const next = o.kind === 'edit' ? t!.replace(oldS, () => rep) : t!.split(oldS).join(rep);
          const after = { data: Buffer.from(next), mode: m.mode };
          expect(r.data.sha256, where).toBe(sha(after.data));
          changed({ path: o.file, before: m, afterSha: sha(after.data) }, new Map([[o.file, after]]), {
            old: m.data,
            path: o.file,
          });
        }
      }
    } else if (o.kind === 'lines') {
      const m = model.get(o.file);
      if (!m) {
        expect(
          (
            await call('edit_lines', {
              path: `/${o.file}`,
              operations: [{ op: 'delete_line', hash: '000000' }],
            })
          ).ok,
        ).toBe(false);
      } else {
        const t = m.data.toString('utf8');
        const lines = rawLines(t);
        const n = (o.line % lines.length) + 1;
        const rd = await call('read_file', { path: `/${o.file}`, hashes: true, offset: n, limit: 1 });
        expect(rd.ok, `${where} ${JSON.stringify(rd.error)?.slice(0, 300)}`).toBe(true);
        const anchor = String(rd.data.content).split('|')[0]!;
        const r = await call('edit_lines', {
          path: `/${o.file}`,
          operations: [{ op: 'replace_line', hash: anchor, content: `L${i}` }],
          sanity: 'off',
        });
        expect(r.ok, `${where} ${JSON.stringify(r.error)?.slice(0, 300)}`).toBe(true);
        const [body, term] = splitTerm(lines[n - 1]!);
        const bom = n === 1 && body.startsWith('\ufeff') ? '\ufeff' : '';
        void body;
        lines[n - 1] = `${bom}L${i}${term}`;
        const after = { data: Buffer.from(lines.join('')), mode: m.mode };
        changed({ path: o.file, before: m, afterSha: sha(after.data) }, new Map([[o.file, after]]), {
          old: m.data,
          path: o.file,
        });
      }
    } else if (o.kind === 'patch') {
      const m = model.get(o.file);
      const marker = markers[o.marker % markers.length]!;
      const t = m?.data.toString('utf8') ?? '';
      const lines = rawLines(t);
      const n = lines.findIndex((l) => l.includes(marker)) + 1;
      if (!m || n === 0 || t.split(marker).length > 2) {
        const r = await call('patch_file', {
          path: `/${o.file}`,
          unified_diff: `--- a/${o.file}\n+++ b/${o.file}\n@@ -1,1 +1,1 @@\n-${marker}\n+P${marker}\n`,
          base_sha256: m ? sha(m.data) : sha(''),
        });
        expect(r.ok, where).toBe(false);
      } else {
        const [body, term] = splitTerm(lines[n - 1]!);
        const shownLine = body.replace(/^\ufeff/, '');
        const diff = `--- a/${o.file}\n+++ b/${o.file}\n@@ -${n},1 +${n},1 @@\n-${shownLine}\n+P${shownLine}\n`;
        const r = await call('patch_file', {
          path: `/${o.file}`,
          unified_diff: diff,
          base_sha256: sha(m.data),
        });
        expect(r.ok, `${where} ${JSON.stringify(r.error)?.slice(0, 300)}`).toBe(true);
        const bom = body.startsWith('\ufeff') ? '\ufeff' : '';
        lines[n - 1] = `${bom}P${shownLine}${term}`;
        const after = { data: Buffer.from(lines.join('')), mode: m.mode };
        changed({ path: o.file, before: m, afterSha: sha(after.data) }, new Map([[o.file, after]]), {
          old: m.data,
          path: o.file,
        });
      }
    } else if (o.kind === 'write') {
      const m = model.get(o.file);
      const src = (m ?? model.get(other(o.file)))?.data.toString('utf8') ?? text0;
      const cut = o.cut % Math.max(1, src.length);
      // a slice dropped or doubled: files grow and shrink across sizes
      let content = o.grow
        ? src.slice(0, cut) + src.slice(Math.floor(cut / 2))
        : src.slice(0, cut) + src.slice(cut + 70_000);
      if (content.startsWith('\ufeff') === false && src.startsWith('\ufeff') && cut === 0) content = src;
      // never cut a surrogate pair in two
      content = content.replace(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        '?',
      );
      if (content.slice(1).includes('\ufeff'))
        content = content[0] + content.slice(1).replaceAll('\ufeff', '');
      const r = await call('write_file', { path: `/${o.file}`, content });
      expect(r.ok, `${where} ${JSON.stringify(r.error)?.slice(0, 300)}`).toBe(true);
      const data = Buffer.from(content);
      const mode = m ? m.mode : actualMode(o.file);
      const after = { data, mode };
      expect(r.data.sha256, where).toBe(sha(data));
      if (m)
        changed({ path: o.file, before: m, afterSha: sha(data) }, new Map([[o.file, after]]), {
          old: m.data,
          path: o.file,
        });
      else {
        changed({ path: o.file, before: undefined, afterSha: sha(data) }, new Map([[o.file, after]]));
        const s = lastShown();
        if (s) expect((s.payload as any).content === content, `${where}: shown content`).toBe(true);
      }
    } else if (o.kind === 'copy' || o.kind === 'move') {
      const from = o.from;
      const to = other(from);
      const src = model.get(from);
      const dst = model.get(to);
      const r = await call(`${o.kind}_file`, {
        source: `/${from}`,
        destination: `/${to}`,
        overwrite: o.overwrite,
      });
      if (!src || (dst && !o.overwrite)) expect(r.ok, `${where}: should fail`).toBe(false);
      else {
        expect(r.ok, `${where} ${JSON.stringify(r.error)?.slice(0, 300)}`).toBe(true);
        const next = new Map<Name, FileModel | undefined>([[to, { ...src }]]);
        if (o.kind === 'move') next.set(from, undefined);
        changed(
          {
            path: to,
            ...(o.kind === 'move' ? { fromPath: from } : {}),
            before: dst,
            afterSha: sha(src.data),
          },
          next,
        );
        const s = lastShown();
        if (s) {
          expect(s.payload.baseSha256).toBe(sha(src.data));
          expect((s.payload as any).destinationSha256).toBe(dst ? sha(dst.data) : null);
        }
      }
    } else if (o.kind === 'delete') {
      const m = model.get(o.file);
      const r = await call('delete_file', { path: `/${o.file}` });
      if (!m) expect(r.ok, where).toBe(false);
      else {
        expect(r.ok, `${where} ${JSON.stringify(r.error)?.slice(0, 300)}`).toBe(true);
        changed({ path: o.file, before: m, afterSha: null }, new Map([[o.file, undefined]]));
        const s = lastShown();
        if (s) expect(s.payload.baseSha256).toBe(sha(m.data));
      }
    } else {
      const last = set.journal.at(-1);
      const u = (await (viaGate ? set.gated.undo() : set.plain.undo())) as any;
      if (!last) expect(u.ok, `${where}: nothing to undo`).toBe(false);
      else {
        const cur = model.get(last.path);
        const curSha = cur ? sha(cur.data) : null;
        const sourceBack = last.fromPath !== undefined && model.has(last.fromPath);
        if (curSha !== last.afterSha || sourceBack) {
          expect(u.ok, `${where}: undo must refuse (file changed since)`).toBe(false);
          expect(u.error.code, where).toBe('state_mismatch');
        } else {
          expect(u.ok, `${where} ${JSON.stringify(u.error)?.slice(0, 300)}`).toBe(true);
          if (last.fromPath) model.set(last.fromPath, { ...cur! });
          if (last.before) model.set(last.path, last.before);
          else model.delete(last.path);
          set.journal.pop();
        }
      }
    }
    check(where);
    STATS[`${o.kind}:${viaGate ? 'g' : 'p'}`] = (STATS[`${o.kind}:${viaGate ? 'g' : 'p'}`] ?? 0) + 1;
  }
}
const STATS: Record<string, number> = {};

const SIZES = [MiB - 3, MiB, MiB + 1, 2 * MiB + 5];

describe('rt55 generated sequences on big files, two toolsets, gated and not', () => {
  it('every step leaves the bytes, modes and undo journals the model says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(SHAPES.length - 1),
        fc.constantFrom(...SIZES),
        fc.array(op, { minLength: 4, maxLength: 12 }),
        async (shapeIndex, size, ops) => {
          const log: string[] = [];
          try {
            await runSequence(shapeIndex, size, ops, log);
          } catch (e) {
            throw new Error(
              `shape ${SHAPES[shapeIndex]![0]} size ${size}\n${log.join('\n')}\n${(e as Error).message}`,
            );
          }
        },
      ),
      {
        numRuns: Number(process.env.RT55_RUNS ?? 14),
        seed: Number(process.env.RT55_SEED ?? 5501),
        endOnFailure: true,
      },
    );
    if (process.env.RT55_STATS) console.log(STATS);
  }, 300_000);
});
