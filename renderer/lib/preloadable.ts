import type { ComponentType } from 'react';
import { createElement, lazy } from 'react';

/** A code-split component that can be fetched ahead of its first render. */
export interface Preloadable<P extends object> {
  /** Render this: the real component once loaded, else a lazy one that suspends. */
  Component: ComponentType<P>;
  /** Starts loading (idempotent); resolves once the component renders without suspending. */
  preload: () => Promise<void>;
}

/**
 * Like React.lazy, but once `preload()` has finished the component renders directly. A lazy
 * component suspends on its first render even when its chunk is already here, and React reveals a
 * suspended boundary no sooner than ~300 ms after its fallback: two nested ones made the pipeline
 * panel's first open take ~340 ms although the API answers in milliseconds.
 */
export function preloadable<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then((m) => {
      loaded = m.default;
    }));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Component(props: P) {
    return createElement((loaded ?? Lazy) as ComponentType<P>, props);
  }
  return { Component, preload };
}
