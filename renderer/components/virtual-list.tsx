import type { CSSProperties, ReactNode, Ref } from 'react';
import { useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** Imperative handle: scroll an item into view (keyboard navigation, search hits, follow). */
export interface VirtualListHandle {
  scrollToIndex(index: number, align?: 'auto' | 'start' | 'end'): void;
  scrollToEnd(): void;
  element(): HTMLDivElement | null;
}

/** Props of a virtual list. */
export interface VirtualListProps {
  count: number;
  /** Height of item i in pixels (fixed heights are fastest; variable ones are summed once). */
  itemHeight: number | ((index: number) => number);
  renderItem: (index: number, style: CSSProperties) => ReactNode;
  /** Extra pixels rendered above and below the viewport. */
  overscan?: number;
  className?: string;
  /** Height when the container is not sized by CSS (jsdom has no layout). */
  fallbackHeight?: number;
  onScroll?: (atEnd: boolean) => void;
  handle?: Ref<VirtualListHandle>;
  role?: string;
  ariaLabel?: string;
}

/** Index of the last offset ≤ y (offsets ascending). */
function findIndex(offsets: Float64Array | number[], y: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Renders only the rows in (and near) the viewport, so 500 projects or 100,000 log lines cost
 * the same as a screenful. Rows are absolutely positioned inside a spacer of the full height.
 */
export function VirtualList(props: VirtualListProps) {
  const { count, itemHeight, renderItem, overscan = 400, fallbackHeight = 600 } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(fallbackHeight);

  const offsets = useMemo(() => {
    const o = new Float64Array(count + 1);
    for (let i = 0; i < count; i++)
      o[i + 1] = o[i]! + (typeof itemHeight === 'number' ? itemHeight : itemHeight(i));
    return o;
  }, [count, itemHeight]);
  const total = offsets[count] ?? 0;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight || fallbackHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [fallbackHeight]);

  useImperativeHandle(
    props.handle,
    () => ({
      scrollToIndex(index, align = 'auto') {
        const el = ref.current;
        if (!el || index < 0 || index >= count) return;
        const top = offsets[index]!;
        const bottom = offsets[index + 1]!;
        const view = el.clientHeight || height;
        if (align === 'start' || (align === 'auto' && top < el.scrollTop)) el.scrollTop = top;
        else if (align === 'end' || (align === 'auto' && bottom > el.scrollTop + view))
          el.scrollTop = bottom - view;
        setScrollTop(el.scrollTop);
      },
      scrollToEnd() {
        const el = ref.current;
        if (!el) return;
        el.scrollTop = total;
        setScrollTop(el.scrollTop);
      },
      element: () => ref.current,
    }),
    [count, offsets, total, height],
  );

  // Keep the scroll position valid when the list shrinks (filters).
  useEffect(() => {
    const el = ref.current;
    if (el && el.scrollTop > total) setScrollTop(el.scrollTop);
  }, [total]);

  const first = count === 0 ? 0 : findIndex(offsets, Math.max(0, scrollTop - overscan));
  const lastY = scrollTop + height + overscan;
  const items: ReactNode[] = [];
  for (let i = first; i < count && offsets[i]! < lastY; i++) {
    items.push(
      renderItem(i, {
        position: 'absolute',
        top: offsets[i],
        left: 0,
        right: 0,
        height: offsets[i + 1]! - offsets[i]!,
      }),
    );
  }
  return (
    <div
      ref={ref}
      className={props.className}
      role={props.role}
      aria-label={props.ariaLabel}
      style={{ overflow: 'auto', position: 'relative' }}
      onScroll={(e) => {
        const el = e.currentTarget;
        setScrollTop(el.scrollTop);
        props.onScroll?.(el.scrollTop + el.clientHeight >= el.scrollHeight - 4);
      }}
    >
      <div style={{ height: total, position: 'relative', minWidth: '100%' }}>{items}</div>
    </div>
  );
}
