/**
 * Numbers the requests of one burst "Approval i of n" (n grows while calls keep
 * arriving) until the queue drains, when the next request starts a new burst.
 */
export class BurstCounter {
  private pending = 0;
  private shown = 0;
  private burst = 0;

  /** A request arrived (it may wait in the queue). */
  arrive(): void {
    this.pending++;
    this.burst++;
  }

  /** The request is shown now: its position, or '' when it is alone. */
  show(): string {
    this.shown++;
    return this.burst > 1 ? `Approval ${this.shown} of ${this.burst}` : '';
  }

  /** The request is done (answered, aborted or failed). */
  leave(): void {
    this.pending--;
    if (this.pending === 0) this.shown = this.burst = 0;
  }
}
