/**
 * At most `size` holders at once, and at most `perOwner` of them one owner's. The others wait;
 * owners are served in turn (round robin): when a slot comes free it goes to the owner that has
 * waited longest since it was last served, so that one owner's many takers (one user's uploads)
 * cannot keep the others waiting behind them. One owner's takers are served in their order; with
 * one owner (the default) it is first come, first served.
 */
export class Slots {
  private free: number;
  private readonly held = new Map<string, number>();
  /** Per owner, its takers in order; owners in the order they are to be served. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    size: number,
    private readonly perOwner = size,
  ) {
    this.free = size;
  }

  /** Resolves once a slot is held, with the function that gives it back (once, however often called). */
  async take(owner = ''): Promise<() => void> {
    if (this.free > 0 && this.heldBy(owner) < this.perOwner && !this.waiting.has(owner)) this.hold(owner);
    else
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(owner);
        if (queue) queue.push(resolve);
        else this.waiting.set(owner, [resolve]);
      });
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.held.set(owner, this.heldBy(owner) - 1);
      if (this.heldBy(owner) === 0) this.held.delete(owner);
      this.free++;
      this.serveWaiting();
    };
  }

  private heldBy(owner: string): number {
    return this.held.get(owner) ?? 0;
  }

  private hold(owner: string): void {
    this.free--;
    this.held.set(owner, this.heldBy(owner) + 1);
  }

  /** Gives free slots to waiting owners under their share, each served going to the back of the line. */
  private serveWaiting(): void {
    while (this.free > 0) {
      const next = [...this.waiting.keys()].find((owner) => this.heldBy(owner) < this.perOwner);
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const resolve = queue.shift()!;
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue);
      this.hold(next);
      resolve();
    }
  }
}
