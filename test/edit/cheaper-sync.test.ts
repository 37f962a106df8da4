import { describe, expect, it } from 'vitest';
import { cheaperSync, type SyncSides } from '../../src/edit/cheaper-sync.js';
import { LineTable } from '../../src/edit/line-table.js';

const WINDOW = 8;

/** Sides over two texts' lines, trusting any WINDOW equal lines (the walk's trust test is its own). */
function sides(a: string[], b: string[], trusted?: (i: number, j: number) => boolean): SyncSides {
  const A = new LineTable(`${a.join('\n')}\n`);
  const B = new LineTable(`${b.join('\n')}\n`);
  const equal = (i: number, j: number) => {
    for (let k = 0; k < WINDOW; k++)
      if (i + k >= a.length || j + k >= b.length || a[i + k] !== b[j + k]) return false;
    return true;
  };
  return {
    a: A,
    b: B,
    a1: A.count,
    b1: B.count,
    trusted: (i, j) => equal(i, j) && (trusted?.(i, j) ?? true),
  };
}

const block = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} line ${i}`);

describe('cheaperSync', () => {
  it('finds a block replaced by another of about its size, cheaper than the jump past both', () => {
    // old: X then the rest; new: Y (a block from elsewhere) then the rest: 40 replaced by 30.
    const rest = block('rest', 100);
    const s = sides([...block('x', 40), ...rest], [...block('y', 30), ...rest, ...block('x', 40)]);
    expect(cheaperSync(s, WINDOW, 0, 0, 200, 400)).toEqual({ x: 40, y: 30 });
  });

  it('finds nothing when every sync costs the limit or more, or lies past the reach', () => {
    const rest = block('rest', 100);
    const s = sides([...block('x', 40), ...rest], [...block('y', 30), ...rest]);
    // Skipping 40 and 30 scores 70 plus the end-diagonal gap (10 - 10 = 0).
    expect(cheaperSync(s, WINDOW, 0, 0, 200, 70)).toBeUndefined();
    expect(cheaperSync(s, WINDOW, 0, 0, 200, 71)).toEqual({ x: 40, y: 30 });
    expect(cheaperSync(s, WINDOW, 0, 0, 35, 400)).toBeUndefined();
  });

  it('takes the cheapest of several syncs, and never one the caller does not trust', () => {
    const rest = block('rest', 100);
    const a = [...block('x', 20), ...rest];
    const b = [...block('y', 50), ...rest.slice(10), ...block('z', 5)];
    // rest[10..] can sync at (30, 50) and rest[0..] nowhere in b: the one sync is (30, 50).
    expect(cheaperSync(sides(a, b), WINDOW, 0, 0, 200, 400)).toEqual({ x: 30, y: 50 });
    expect(
      cheaperSync(
        sides(a, b, () => false),
        WINDOW,
        0,
        0,
        200,
        400,
      ),
    ).toBeUndefined();
  });

  it('hashes whole lines, terminators and non-ASCII included: lines that differ in one code unit never sync', () => {
    const rest = Array.from({ length: 40 }, (_, i) => `é ${i} 😀\r`);
    const other = rest.map((l, i) => (i === 3 ? l.replace('😀', '😁') : l));
    expect(
      cheaperSync(sides([...block('x', 10), ...rest], [...block('y', 10), ...other]), WINDOW, 0, 0, 100, 400),
    ).toEqual({
      x: 14,
      y: 14,
    });
  });
});
