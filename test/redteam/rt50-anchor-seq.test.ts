import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { get, mkdir, parseAnchors, put, raw, rm } from './rt50-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(rm));

const lineArb = fc.constantFrom('}', '', 'x', '  }', 'foo();', '{', 'x', 'bar');
const fileArb = fc.array(lineArb, { minLength: 1, maxLength: 25 });

const opArb = fc.record({
  op: fc.constantFrom('replace_line', 'insert_after', 'insert_before', 'delete_line'),
  pick: fc.nat(),
  content: fc.constantFrom('N1', '}', '', 'x', 'A\nB'),
  slip: fc.integer({ min: -2, max: 2 }),
});

describe('rt50 stale anchors from one read across a sequence of edit_lines calls', () => {
  it('each call edits exactly the tracked line or refuses (paged reads too)', async () => {
    const dir = mkdir();
    dirs.push(dir);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fileArb,
        fc.array(opArb, { minLength: 1, maxLength: 5 }),
        fc.option(fc.record({ offset: fc.nat(), limit: fc.integer({ min: 1, max: 10 }) })),
        async (lines, ops, page) => {
          const name = `q${n++}.txt`;
          put(dir, name, `${lines.join('\n')}\n`);
          const ts = raw(dir);
          const readArgs: any = { path: `/${name}`, hashes: true };
          if (page) {
            readArgs.offset = 1 + (page.offset % lines.length);
            readArgs.limit = page.limit;
          }
          const r: any = await ts.callTool('read_file', readArgs);
          expect(r.ok).toBe(true);
          const a = parseAnchors(r.data.content);
          const first = a[0]!.line - 1;
          let cur: { t: string; id: number }[] = lines.map((t, k) => ({ t, id: k }));
          let fresh = 1000;
          const shown = new Map<string, number[]>();
          const log: any[] = [];
          for (const o of ops) {
            const ai = o.pick % a.length;
            const anc = a[ai]!;
            const id = first + ai;
            const before = get(dir, name);
            const op: any = { op: o.op, hash: `${Math.max(1, anc.line + o.slip)}#${anc.hash}` };
            if (o.op !== 'delete_line') op.content = o.content;
            const out: any = await ts.callTool('edit_lines', {
              path: `/${name}`,
              operations: [op],
              sanity: 'off',
            });
            const after = get(dir, name);
            log.push({ op, ok: out.ok, code: out.ok ? undefined : out.error.code });
            const surfaceIds = shown.get(anc.hash) ?? [];
            if (!out.ok) {
              expect(after).toBe(before);
              expect(out.error.code).not.toBe('io_error');
              continue;
            }
            // find which line was edited: the candidate whose application reproduces the file
            const cands = [id, ...surfaceIds].filter(
              (c, k, arr) => arr.indexOf(c) === k && cur.some((x) => x.id === c),
            );
            let matched = false;
            for (const cid of cands) {
              const trial = cur.map((c) => ({ ...c }));
              const idx = trial.findIndex((c) => c.id === cid);
              const nl =
                o.op === 'delete_line'
                  ? []
                  : o.content
                      .replace(/\n$/, '')
                      .split('\n')
                      .map((t, k) => ({ t, id: fresh + k }));
              if (o.op === 'replace_line') {
                if (nl.length === 1 && nl[0]!.t === trial[idx]!.t) nl[0]!.id = trial[idx]!.id;
                trial.splice(idx, 1, ...nl);
              } else if (o.op === 'delete_line') trial.splice(idx, 1);
              else if (o.op === 'insert_after') trial.splice(idx + 1, 0, ...nl);
              else trial.splice(idx, 0, ...nl);
              const exp = trial.length ? `${trial.map((c) => c.t).join('\n')}\n` : '';
              if (exp === after) {
                cur = trial;
                fresh += nl.length;
                matched = true;
                break;
              }
            }
            expect({ lines, page, log, after, cands, matched }).toEqual({
              lines,
              page,
              log,
              after,
              cands,
              matched: true,
            });
            // record anchors this diff showed
            for (const dl of String(out.data.diff).split('\n')) {
              const m = /^[+ ](\d+)#([0-9a-f]+)\|/.exec(dl);
              if (m) {
                const at = cur[Number(m[1]) - 1];
                if (at) shown.set(m[2]!, [at.id, ...(shown.get(m[2]!) ?? [])]);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 180_000);
});
