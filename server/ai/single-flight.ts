/** Streams pieces of an answer as they arrive. */
export type DeltaListener = (text: string) => void;

/** An answer in the making, shared by concurrent requests for the same thing. */
interface Flight<T> {
  promise: Promise<T>;
  text: string;
  listeners: Set<DeltaListener>;
}

/**
 * Runs one piece of work per key at a time: a caller who asks while the work is under way joins
 * it, gets the text streamed so far at once and the rest as it comes, and the same result.
 */
export class SingleFlight {
  readonly #flights = new Map<string, Flight<unknown>>();

  /** Runs `work` for `key`, or joins the run already under way. */
  run<T>(
    key: string,
    work: (onDelta: DeltaListener | undefined) => Promise<T>,
    onDelta: DeltaListener | undefined,
  ): Promise<T> {
    let flight = this.#flights.get(key) as Flight<T> | undefined;
    if (!flight) {
      const f: Flight<T> = {
        promise: undefined as unknown as Promise<T>,
        text: '',
        listeners: new Set(),
      };
      // The first caller decides whether the work streams; later streaming callers still get the
      // whole text at the end.
      f.promise = work(
        onDelta
          ? (delta) => {
              f.text += delta;
              for (const l of f.listeners) l(delta);
            }
          : undefined,
      ).finally(() => this.#flights.delete(key));
      this.#flights.set(key, f as Flight<unknown>);
      flight = f;
    } else if (onDelta && flight.text) {
      onDelta(flight.text);
    }
    if (onDelta) {
      const joined = flight;
      joined.listeners.add(onDelta);
      void joined.promise.finally(() => joined.listeners.delete(onDelta)).catch(() => {});
    }
    return flight.promise;
  }
}

/** Runs work for one key strictly one after another (a conversation keeps its order). */
export class SerialQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after everything queued earlier for `key` has settled. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.catch(() => {}).then(work);
    this.#tails.set(key, run);
    try {
      return await run;
    } finally {
      if (this.#tails.get(key) === run) this.#tails.delete(key);
    }
  }
}
