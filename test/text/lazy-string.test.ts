import { describe, expect, it } from 'vitest';
import { cloneData } from '../../src/approval/call-arguments.js';
import { copyFields, defineLazyString, lazyStringOf, shareField } from '../../src/text/lazy-string.js';

function counted(value: string) {
  const made = { calls: 0 };
  const target = defineLazyString({ kind: 'diff', text: '', after: 1 }, 'text', () => {
    made.calls++;
    return value;
  });
  return { target, made };
}

describe('a string field computed when first read', () => {
  it('is computed once, on the first read, and reads as a plain string field everywhere', () => {
    const { target, made } = counted('@@ -1 +1 @@\n-a\n+b\n');
    expect(made.calls).toBe(0);
    expect(Object.keys(target)).toEqual(['kind', 'text', 'after']);
    expect(JSON.stringify(target)).toBe('{"kind":"diff","text":"@@ -1 +1 @@\\n-a\\n+b\\n","after":1}');
    expect({ ...target }).toEqual({ kind: 'diff', text: '@@ -1 +1 @@\n-a\n+b\n', after: 1 });
    expect(structuredClone(target).text).toBe(target.text);
    expect(made.calls).toBe(1);
  });

  it('stays unread through copyFields, shareField and the callback copy, and all copies read one value', () => {
    const { target, made } = counted('shown');
    const copy = copyFields(target, { after: 2 });
    const shared = shareField({ x: 0 }, 'shownDiff', target, 'text') as { x: number; shownDiff?: string };
    const clone = cloneData({ payload: target }).payload;
    expect(lazyStringOf(copy, 'text')).toBeDefined();
    expect(lazyStringOf(clone, 'text')).toBeDefined();
    expect(made.calls).toBe(0);
    expect([copy.text, shared.shownDiff, clone.text, target.text]).toEqual([
      'shown',
      'shown',
      'shown',
      'shown',
    ]);
    expect(made.calls).toBe(1);
    expect(copy.after).toBe(2);
    expect(Object.keys(copy)).toEqual(['kind', 'text', 'after']);
  });

  it('becomes a plain value on the one object it is assigned on, the others unchanged', () => {
    const { target } = counted('what runs');
    const clone = cloneData(target);
    clone.text = 'changed by a callback';
    expect(clone.text).toBe('changed by a callback');
    expect(lazyStringOf(clone, 'text')).toBeUndefined();
    expect(target.text).toBe('what runs');
    const frozen = Object.freeze(copyFields(target, {}));
    expect(() => {
      (frozen as { text: string }).text = 'x';
    }).toThrow(TypeError);
    expect(frozen.text).toBe('what runs');
  });
});

describe('assigning to a lazy string field (red team rt54)', () => {
  it('gives an object inheriting from the payload its own plain value, the payload unchanged', () => {
    const { target } = counted('the diff');
    const child = Object.create(target) as { text: string };
    child.text = 'X';
    expect(Object.getOwnPropertyDescriptor(child, 'text')?.value).toBe('X');
    expect(target.text).toBe('the diff');
  });

  it('sets the field assigned to on a copy, never another field', () => {
    const { target } = counted('the diff');
    const copy = copyFields(target, {}) as { kind: string; text: string };
    copy.kind = 'k';
    copy.text = 'T';
    expect(copy).toEqual({ kind: 'k', text: 'T', after: 1 });
    expect(target.text).toBe('the diff');
  });
});
