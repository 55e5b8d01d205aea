import { useLayoutEffect, useRef, useState } from 'react';
import type { TrendDay } from '../../../server/contract.ts';
import { formatDuration } from '../../lib/format.ts';

const HEIGHT = 132;
const PAD = { top: 8, right: 10, bottom: 20, left: 40 };
/** Tick steps in seconds, so every label is a whole unit: `30s`, `2m`, `1h`. */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 28_800];
const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** `2026-11-28` → `28 Nov` (the day is UTC already). */
export function dayLabel(day: string): string {
  return `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1] ?? ''}`;
}

/** Three or four evenly spaced tick values from 0 up to at least `max` seconds, in whole units. */
export function durationTicks(max: number): number[] {
  const step = STEPS.find((s) => s * 3 >= max) ?? Math.ceil(max / 3 / 3600) * 3600;
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return ticks;
}

/**
 * Which of `count` days get a date label when days are `step` px apart: every k-th day from the
 * first (k so labels are ≥ 70 px apart), and the last day in place of a k-th one too close to it.
 */
export function dateTicks(count: number, step: number): Set<number> {
  if (count <= 1) return new Set([0]);
  const every = Math.max(1, Math.ceil(70 / Math.max(1, step)));
  const ticks: number[] = [];
  for (let i = 0; i < count - 1; i += every) ticks.push(i);
  if (ticks.length > 1 && (count - 1 - ticks[ticks.length - 1]!) * step < 70) ticks.pop();
  ticks.push(count - 1);
  return new Set(ticks);
}

/** The container's width in CSS pixels, so the chart is drawn at its real size (text unscaled). */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, Math.round(el.clientWidth || fallback)));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [fallback]);
  return [ref, width] as const;
}

/**
 * Daily p50 (solid) and p90 (dashed) durations of one job over the days given, with a duration
 * axis (whole-unit ticks) and a date axis; days without runs leave gaps, single days show as dots,
 * and the day of the first slow run, when given, is marked. No chart library: a path per series.
 */
export function DurationChart({
  days,
  markDay,
  label,
}: {
  days: TrendDay[];
  markDay?: string | null;
  label: string;
}) {
  const [ref, width] = useWidth(320);
  const innerW = width - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const values = days.flatMap((d) => (d.duration_p90 === null ? [] : [d.duration_p90]));
  const ticks = durationTicks(Math.max(1, ...values));
  const top = ticks[ticks.length - 1]!;
  const step = days.length > 1 ? innerW / (days.length - 1) : 0;
  const x = (i: number) => PAD.left + (days.length > 1 ? i * step : innerW / 2);
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const path = (pick: (d: TrendDay) => number | null) => {
    let d = '';
    let pen = false;
    days.forEach((day, i) => {
      const v = pick(day);
      if (v === null) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    return d;
  };
  const labelled = dateTicks(days.length, step);
  const mark = markDay ? days.findIndex((d) => d.day === markDay) : -1;
  const withRuns = days.filter((d) => d.runs > 0);
  const last = withRuns[withRuns.length - 1];
  return (
    <div className="duration-chart-wrap" ref={ref}>
      <svg
        className="duration-chart"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        width={width}
        height={HEIGHT}
        role="img"
        aria-label={`${label}: median ${formatDuration(last?.duration_p50)} on ${last ? dayLabel(last.day) : 'no day'}, highest p90 ${formatDuration(Math.max(0, ...values))}`}
      >
        {ticks.map((t) => (
          <g key={t} className="y-tick">
            <line x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} className="grid-line" />
            <text x={PAD.left - 6} y={y(t) + 3} textAnchor="end" className="axis-label">
              {t === 0 ? '0' : formatDuration(t)}
            </text>
          </g>
        ))}
        {days.map((d, i) =>
          labelled.has(i) ? (
            <text
              key={d.day}
              x={x(i)}
              y={HEIGHT - 5}
              textAnchor={
                days.length === 1
                  ? 'middle'
                  : i === 0
                    ? 'start'
                    : i === days.length - 1
                      ? 'end'
                      : 'middle'
              }
              className="axis-label x-tick"
            >
              {dayLabel(d.day)}
            </text>
          ) : null,
        )}
        {mark >= 0 && (
          <line
            className="chart-mark"
            x1={x(mark)}
            x2={x(mark)}
            y1={PAD.top}
            y2={PAD.top + innerH}
          />
        )}
        <path className="chart-p90" d={path((d) => d.duration_p90)} />
        <path className="chart-p50" d={path((d) => d.duration_p50)} />
        {days.map((d, i) =>
          d.duration_p50 === null ? null : (
            <circle key={d.day} className="chart-dot" cx={x(i)} cy={y(d.duration_p50)} r={2.5}>
              <title>
                {`${dayLabel(d.day)}: p50 ${formatDuration(d.duration_p50)}, p90 ${formatDuration(d.duration_p90)}, ${d.runs} run${d.runs === 1 ? '' : 's'}`}
              </title>
            </circle>
          ),
        )}
      </svg>
    </div>
  );
}

/** The key to the duration charts: what the solid, dashed and marked lines are. */
export function DurationLegend({ marked }: { marked: boolean }) {
  return (
    <div className="chart-legend duration-legend" data-testid="duration-legend">
      <span className="legend-line legend-p50">
        <svg width="22" height="8" aria-hidden="true">
          <line x1="1" x2="21" y1="4" y2="4" className="chart-p50" />
        </svg>
        p50 (median)
      </span>
      <span className="legend-line legend-p90">
        <svg width="22" height="8" aria-hidden="true">
          <line x1="1" x2="21" y1="4" y2="4" className="chart-p90" />
        </svg>
        p90
      </span>
      {marked && (
        <span className="legend-line legend-mark">
          <svg width="10" height="12" aria-hidden="true">
            <line x1="5" x2="5" y1="0" y2="12" className="chart-mark" />
          </svg>
          first slow run
        </span>
      )}
      <span className="muted">successful runs per UTC day</span>
    </div>
  );
}
