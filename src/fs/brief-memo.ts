/**
 * One value kept for a short while under a key of a few parts (compared with ===):
 * work done for a call's approval is found again by its execution moments later,
 * without holding a big value for good. It is dropped `keepMs` after it was stored.
 */
export class BriefMemo<V> {
  private entry: { key: readonly unknown[]; value: V } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly keepMs = 30_000) {}

  get(key: readonly unknown[]): V | undefined {
    const e = this.entry;
    if (!e || e.key.length !== key.length || e.key.some((k, i) => k !== key[i])) return undefined;
    return e.value;
  }

  set(key: readonly unknown[], value: V): void {
    this.entry = { key, value };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.entry = undefined;
    }, this.keepMs);
    this.timer.unref();
  }
}
