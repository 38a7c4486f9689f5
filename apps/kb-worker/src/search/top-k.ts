/**
 * The best `limit` items of a stream without sorting all of them: a binary heap holding the
 * current best, its worst at the root, so each item costs O(log limit) and is only compared with
 * the root when it cannot enter. `better(a, b)` is a strict total order (ties broken by the caller).
 */
export class TopK<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly better: (a: T, b: T) => boolean,
  ) {}

  /** The item an entrant must beat once the heap is full; undefined while there is room. */
  get threshold(): T | undefined {
    return this.heap.length < this.limit ? undefined : this.heap[0];
  }

  push(item: T): void {
    const h = this.heap;
    if (this.limit <= 0) return;
    if (h.length < this.limit) {
      h.push(item);
      this.up(h.length - 1);
    } else if (this.better(item, h[0])) {
      h[0] = item;
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : this.better(b, a) ? 1 : 0));
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.better(h[p], h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.better(h[worst], h[l])) worst = l;
      if (r < h.length && this.better(h[worst], h[r])) worst = r;
      if (worst === i) return;
      [h[worst], h[i]] = [h[i], h[worst]];
      i = worst;
    }
  }
}
