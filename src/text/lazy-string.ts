/**
 * String fields computed when first read. A big diff that nobody looks at (an
 * approval decided by a policy) is never written out: the field is an enumerable
 * getter, so reading it, JSON.stringify and spreading see a plain string, while
 * copies made here keep it unread. The value is computed once and shared by every
 * copy: a string cannot change, so sharing it is safe. Assigning to the field
 * makes it a plain value on that object only, as on any plain object.
 */
const lazyGetters = new WeakSet<() => string>();

/**
 * Field `key` as an accessor for `get` (a registered lazy getter). Assigning to it
 * gives the object assigned to (an own copy, or one inheriting from it) a plain `key`.
 */
function lazyField(get: () => string, key: string): PropertyDescriptor {
  return {
    get,
    set(this: object, value: unknown) {
      Object.defineProperty(this, key, { value, enumerable: true, writable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  };
}

/** Makes `target[key]` a string computed by `make` on first read (the key keeps its place). */
export function defineLazyString<T extends object>(target: T, key: keyof T & string, make: () => string): T {
  let compute: (() => string) | undefined = make;
  let value = '';
  const get = () => {
    if (compute) {
      value = compute();
      // What it was computed from is let go.
      compute = undefined;
    }
    return value;
  };
  lazyGetters.add(get);
  Object.defineProperty(target, key, lazyField(get, key));
  return target;
}

/** The getter of a lazy string field of `source`, undefined when the field is anything else. */
export function lazyStringOf(source: object, key: string): (() => string) | undefined {
  const get = Object.getOwnPropertyDescriptor(source, key)?.get;
  return get && lazyGetters.has(get as () => string) ? (get as () => string) : undefined;
}

/**
 * Sets `target[key]` to `source[from]` (`key` by default): a lazy string stays unread
 * (the key keeps its place in `target`).
 */
export function shareField<T extends object>(target: T, key: string, source: object, from = key): T {
  const lazy = lazyStringOf(source, from);
  Object.defineProperty(
    target,
    key,
    lazy
      ? lazyField(lazy, key)
      : {
          value: (source as Record<string, unknown>)[from],
          enumerable: true,
          writable: true,
          configurable: true,
        },
  );
  return target;
}

/** `source`'s own fields (lazy strings kept unread) with `extra` set over them, in one new object. */
export function copyFields<T extends object, E extends object>(source: T, extra: E): T & E {
  const out = {} as T & E;
  for (const key of Object.keys(source)) shareField(out, key, source);
  for (const key of Object.keys(extra)) shareField(out, key, extra);
  return out;
}
