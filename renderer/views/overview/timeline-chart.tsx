import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Timeline, TimelineBucket } from '../../lib/timeline.ts';

const SERIES = [
  { key: 'success', label: 'Passed' },
  { key: 'failed', label: 'Failed' },
  { key: 'running', label: 'Running' },
  { key: 'other', label: 'Other' },
] as const;

// Day buckets are UTC days (the service aligns them so every viewer sees the same bars); hour
// buckets read in local time, which shares the hour boundaries in whole-hour time zones.
const UTC_DAY: Intl.DateTimeFormatOptions = { timeZone: 'UTC', month: 'short', day: 'numeric' };

function bucketLabel(b: TimelineBucket, unit: Timeline['unit']): string {
  const d = new Date(b.start);
  if (unit === 'hour')
    return d.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  const days = Math.round((b.end - b.start) / 86_400_000);
  if (days <= 1) return d.toLocaleDateString(undefined, { ...UTC_DAY, weekday: 'short' });
  return `${d.toLocaleDateString(undefined, UTC_DAY)} – ${new Date(b.end - 1).toLocaleDateString(undefined, UTC_DAY)}`;
}

function niceMax(max: number): number {
  if (max <= 4) return Math.max(1, max);
  const mag = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * mag >= max) return step * mag;
  return 10 * mag;
}

/** A stacked bar chart of pipelines per hour or day by outcome; hover or focus a bar for its counts. */
export function TimelineChart({
  timeline,
  onOpenFailures,
}: {
  timeline: Timeline;
  /** Opens the failures of a bar (bars with failures become links). */
  onOpenFailures?: (bucket: Timeline['buckets'][number]) => void;
}) {
  const [hover, setHover] = useState<number | null>(null);
  const { buckets, unit } = timeline;
  // Draw at the container's real width so text and bars are never scaled.
  const wrapRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useLayoutEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(320, Math.round(el.clientWidth || 720)));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const height = 200;
  const pad = { top: 10, right: 8, bottom: 24, left: 32 };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const top = niceMax(timeline.max);
  const slot = innerW / Math.max(1, buckets.length);
  const barW = Math.max(2, Math.min(44, slot * 0.55));
  const ticks = [0, top / 2, top];
  const labelEvery = Math.ceil(buckets.length / Math.max(4, Math.floor(width / 90)));
  const totals = useMemo(
    () => buckets.map((b) => b.success + b.failed + b.running + b.other),
    [buckets],
  );
  const hovered = hover === null ? null : buckets[hover];
  return (
    <div className="timeline">
      <div className="chart-legend" aria-hidden="true">
        {SERIES.map((s) => (
          <span key={s.key} className={`legend-item series-${s.key}`}>
            <i /> {s.label}
          </span>
        ))}
        {buckets[0]?.partial && (
          <span className="legend-item legend-partial">
            <i /> first {unit} partial
          </span>
        )}
      </div>
      <div className="chart-wrap" ref={wrapRef}>
        <svg
          viewBox={`0 0 ${width} ${height}`}
          className="chart"
          role="group"
          aria-label={`Pipelines per ${unit}: ${timeline.total} in total`}
          data-total={timeline.total}
          onMouseLeave={() => setHover(null)}
        >
          {ticks.map((t) => {
            const y = pad.top + innerH - (t / top) * innerH;
            return (
              <g key={t}>
                <line x1={pad.left} x2={width - pad.right} y1={y} y2={y} className="grid-line" />
                <text x={pad.left - 6} y={y + 3} textAnchor="end" className="axis-label">
                  {Number.isInteger(t) ? t : t.toFixed(1)}
                </text>
              </g>
            );
          })}
          {buckets.map((b, i) => {
            const x = pad.left + i * slot + (slot - barW) / 2;
            let y = pad.top + innerH;
            return (
              <g
                key={b.start}
                className={`bar${hover === i ? ' bar-hover' : ''}${b.partial ? ' bar-partial' : ''}`}
                data-partial={b.partial || undefined}
                onMouseEnter={() => setHover(i)}
                onFocus={() => setHover(i)}
                onBlur={() => setHover(null)}
                tabIndex={totals[i] ? 0 : -1}
                {...(onOpenFailures && b.failed > 0
                  ? {
                      role: 'link',
                      'data-failures': b.failed,
                      style: { cursor: 'pointer' },
                      onClick: () => onOpenFailures(b),
                      onKeyDown: (e: React.KeyboardEvent) => {
                        if (e.key === 'Enter') onOpenFailures(b);
                      },
                    }
                  : {})}
                aria-label={`${bucketLabel(b, unit)}${b.partial ? ` (partial ${unit}: the window starts inside it)` : ''}: ${b.success} passed, ${b.failed} failed, ${b.running} running, ${b.other} other`}
              >
                <rect
                  x={pad.left + i * slot}
                  y={pad.top}
                  width={slot}
                  height={innerH}
                  className="bar-hit"
                />
                {SERIES.map((s) => {
                  const v = b[s.key];
                  if (!v) return null;
                  const h = (v / top) * innerH;
                  y -= h;
                  return (
                    <rect
                      key={s.key}
                      x={x}
                      y={y}
                      width={barW}
                      height={Math.max(1, h - 1)}
                      rx={Math.min(3, barW / 4)}
                      className={`series-${s.key}`}
                    />
                  );
                })}
                {i % labelEvery === 0 && (
                  <text x={x + barW / 2} y={height - 6} textAnchor="middle" className="axis-label">
                    {unit === 'hour'
                      ? new Date(b.start).toLocaleTimeString(undefined, { hour: '2-digit' })
                      : new Date(b.start).toLocaleDateString(undefined, UTC_DAY)}
                    {b.partial ? ' (part)' : ''}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
        {hovered && hover !== null && (
          <div
            className="chart-tooltip"
            role="tooltip"
            style={{ left: `${((pad.left + (hover + 0.5) * slot) / width) * 100}%` }}
          >
            <strong>{bucketLabel(hovered, unit)}</strong>
            {hovered.partial && (
              <span className="muted">partial {unit}: the window starts inside it</span>
            )}
            <span className="series-success">{hovered.success} passed</span>
            <span className="series-failed">{hovered.failed} failed</span>
            {hovered.running > 0 && (
              <span className="series-running">{hovered.running} running</span>
            )}
            {hovered.other > 0 && <span className="series-other">{hovered.other} other</span>}
          </div>
        )}
      </div>
    </div>
  );
}
