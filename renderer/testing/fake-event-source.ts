import type { EventSourceLike } from '../api/live-feed.ts';

/** An EventSource double the test drives by hand: open it, emit named events, fail it. */
export class FakeEventSource implements EventSourceLike {
  readyState = 0;
  onopen: ((ev: Event) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  closed = false;
  private readonly handlers = new Map<string, ((ev: MessageEvent) => void)[]>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (ev: MessageEvent) => void): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }

  /** The server accepted the stream. */
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  /** The server sent `event: type` with `data`. */
  emit(type: string, data: unknown): void {
    const ev = new MessageEvent(type, { data: JSON.stringify(data) });
    for (const h of this.handlers.get(type) ?? []) h(ev);
  }

  /** The connection dropped. */
  fail(): void {
    this.readyState = 0;
    this.onerror?.(new Event('error'));
  }
}

/** Manual timers: `run()` fires everything due, in order of creation. */
export class ManualTimers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  set = (fn: () => void, ms: number): unknown => {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  };
  clear = (handle: unknown): void => {
    this.pending.delete(handle as number);
  };
  /** Delays of pending timers. */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }
  /** Fires the pending timer with the shortest delay. */
  fireShortest(): void {
    const [id, t] = [...this.pending.entries()].sort((a, b) => a[1].ms - b[1].ms)[0] ?? [];
    if (id === undefined || !t) throw new Error('no timer pending');
    this.pending.delete(id);
    t.fn();
  }
}
