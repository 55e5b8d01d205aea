import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { errorMessage } from '../api/client.ts';

/** The state of a request a view makes. */
export type AsyncState<T> =
  | { status: 'loading'; data?: T }
  | { status: 'ok'; data: T }
  | { status: 'error'; error: string; httpStatus?: number; data?: T };

/**
 * Runs `load` when `deps` change (aborting the previous run) and on `reload()`. Keeps the previous
 * data while reloading so refreshes do not blank the view.
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): [AsyncState<T>, () => void, (data: T) => void] {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ok', data });
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        const httpStatus = (err as { status?: number }).status;
        setState((s) => ({ status: 'error', error: errorMessage(err), httpStatus, data: s.data }));
      },
    );
    return () => controller.abort();
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const set = useCallback((data: T) => setState({ status: 'ok', data }), []);
  return [state, reload, set];
}

const minuteListeners = new Set<() => void>();
let nowValue = Date.now();
let ticker: ReturnType<typeof setInterval> | null = null;

// Module-level so React subscribes once per component, not on every render.
function subscribeNow(listener: () => void): () => void {
  minuteListeners.add(listener);
  ticker ??= setInterval(() => {
    nowValue = Date.now();
    for (const fn of minuteListeners) fn();
  }, 15_000);
  return () => {
    minuteListeners.delete(listener);
    if (minuteListeners.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };
}

function getNow(): number {
  return nowValue;
}

/** The current time, refreshed every 15 s, so "3m ago" labels stay true without per-row timers. */
export function useNow(): Date {
  const value = useSyncExternalStore(subscribeNow, getNow, getNow);
  // Fresh after a long idle (ticker stopped): never older than the last tick allows.
  return new Date(Math.max(value, ticker ? value : Date.now()));
}

/** A value persisted in localStorage (theme, view preferences). */
export function useStoredState<T extends string>(
  key: string,
  initial: T,
  allowed: readonly T[],
): [T, (v: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = localStorage.getItem(key) as T | null;
      return stored && allowed.includes(stored) ? stored : initial;
    } catch {
      return initial;
    }
  });
  const set = useCallback(
    (v: T) => {
      setValue(v);
      try {
        localStorage.setItem(key, v);
      } catch {
        // Storage can be unavailable (private windows); the choice then lasts for the session.
      }
    },
    [key],
  );
  return [value, set];
}
