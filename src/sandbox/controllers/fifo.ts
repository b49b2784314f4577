/**
 * First in, first out, for the controllers' bursts, where thousands of items wait at once. Neither
 * of the obvious queues keeps a take cheap at that size: an array's shift copies the whole array
 * once it is large, and taking a Map's first entry walks past every entry deleted since the Map
 * last rehashed.
 */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head++];
    // what the head passed goes once it is most of the array
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
