/**
 * A minimal external store for `useSyncExternalStore`: one immutable state object, replaced (never
 * mutated) on each change so React sees a new snapshot, and listeners told after every change.
 */
export class ExternalStore<S extends object> {
  private readonly listeners = new Set<() => void>();

  constructor(protected state: S) {}

  /** The current state (stable object between changes). */
  getState = (): S => this.state;

  /** Subscribes to state changes; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Merges `patch` into a new state object and notifies listeners. */
  protected set(patch: Partial<S>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
