/**
 * A min-heap of due times, so one scheduler tick serves the whole fleet instead of one timer per
 * node. Entries carry a small integer payload (the node's index) and a tag the caller uses to
 * recognise stale entries (cheaper than removing them from the middle of the heap).
 */
export class TimerQueue {
  private readonly at: number[] = [];
  private readonly item: number[] = [];
  private readonly tag: number[] = [];

  /** Entries waiting, stale ones included. */
  get size(): number {
    return this.at.length;
  }

  /** Adds `item` (with `tag`) due at `at` (epoch ms). */
  push(at: number, item: number, tag: number): void {
    this.at.push(at);
    this.item.push(item);
    this.tag.push(tag);
    this.up(this.at.length - 1);
  }

  /** Removes and returns the earliest entry if it is due at or before `now`. */
  popDue(now: number): { item: number; tag: number; at: number } | undefined {
    const first = this.at[0];
    if (first === undefined || first > now) return undefined;
    const entry = { at: first, item: this.item[0] as number, tag: this.tag[0] as number };
    const lastAt = this.at.pop() as number;
    const lastItem = this.item.pop() as number;
    const lastTag = this.tag.pop() as number;
    if (this.at.length > 0) {
      this.at[0] = lastAt;
      this.item[0] = lastItem;
      this.tag[0] = lastTag;
      this.down(0);
    }
    return entry;
  }

  /** Forgets every entry. */
  clear(): void {
    this.at.length = 0;
    this.item.length = 0;
    this.tag.length = 0;
  }

  private swap(i: number, j: number): void {
    const a = this.at[i] as number;
    const b = this.item[i] as number;
    const c = this.tag[i] as number;
    this.at[i] = this.at[j] as number;
    this.item[i] = this.item[j] as number;
    this.tag[i] = this.tag[j] as number;
    this.at[j] = a;
    this.item[j] = b;
    this.tag[j] = c;
  }

  private up(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.at[parent] as number) <= (this.at[i] as number)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(index: number): void {
    const n = this.at.length;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && (this.at[left] as number) < (this.at[smallest] as number)) smallest = left;
      if (right < n && (this.at[right] as number) < (this.at[smallest] as number)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
