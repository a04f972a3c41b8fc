// A promise-chain mutex: callers run one at a time, in arrival order.
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Number of callers holding or waiting for the lock. */
  get waiting(): number {
    return this.pending;
  }

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    this.pending++;
    const result = this.tail.then(fn);
    this.tail = result
      .catch(() => undefined)
      .finally(() => {
        this.pending--;
      });
    return result;
  }
}
