/** Runs async tasks one at a time, in arrival order (one approval prompt at a time). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // Keep the chain alive whatever the task does; callers see its real outcome.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
