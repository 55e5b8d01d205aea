import type { HealthPipeline, TrendDay } from '../../../server/contract.ts';
import { AppLink } from '../../components/app-link.tsx';
import { pipelinePath } from '../../lib/router.ts';

/**
 * The health area's title and tabs: default branches, flaky jobs, trends (plain links, one URL
 * each).
 */
export function HealthToolbar({ active }: { active: 'branches' | 'flaky' | 'trends' }) {
  const tabs = [
    { id: 'branches', path: '/health', label: 'Default branches' },
    { id: 'flaky', path: '/health/flaky', label: 'Flaky jobs' },
    { id: 'trends', path: '/health/trends', label: 'Durations' },
  ] as const;
  return (
    <div className="toolbar">
      <h1 className="view-title">Group health</h1>
      <nav className="health-tabs" aria-label="Group health">
        {tabs.map((t) => (
          <AppLink key={t.id} href={t.path} aria-current={active === t.id ? 'page' : undefined}>
            {t.label}
          </AppLink>
        ))}
      </nav>
    </div>
  );
}

/** `#123` linking to the pipeline panel. */
export function PipelineLink({
  pipeline,
}: {
  pipeline: Pick<HealthPipeline, 'project_id' | 'pipeline_id'>;
}) {
  return (
    <AppLink href={pipelinePath(pipeline.project_id, pipeline.pipeline_id)}>
      #{pipeline.pipeline_id}
    </AppLink>
  );
}

const CHART_W = 280;
const CHART_H = 64;

/**
 * A small SVG chart of daily p50 (line) and p90 (band top) durations; days without runs leave gaps.
 * The day of the first slow run, when given, is marked. No chart library: a path per series.
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
  const values = days.flatMap((d) => (d.duration_p90 === null ? [] : [d.duration_p90]));
  const max = Math.max(1, ...values);
  const step = days.length > 1 ? CHART_W / (days.length - 1) : 0;
  const y = (v: number) => CHART_H - 4 - (v / max) * (CHART_H - 8);
  const path = (pick: (d: TrendDay) => number | null) => {
    let d = '';
    let pen = false;
    days.forEach((day, i) => {
      const v = pick(day);
      if (v === null) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${(i * step).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    return d;
  };
  const mark = markDay ? days.findIndex((d) => d.day === markDay) : -1;
  const withRuns = days.filter((d) => d.runs > 0);
  const last = withRuns[withRuns.length - 1];
  return (
    <svg
      className="duration-chart"
      viewBox={`-2 0 ${CHART_W + 4} ${CHART_H}`}
      width={CHART_W}
      height={CHART_H}
      role="img"
      aria-label={`${label}: median ${last?.duration_p50 ?? '—'} s on ${last?.day ?? 'no day'}, highest p90 ${max} s`}
    >
      {mark >= 0 && (
        <line className="chart-mark" x1={mark * step} x2={mark * step} y1={0} y2={CHART_H} />
      )}
      <path className="chart-p90" d={path((d) => d.duration_p90)} />
      <path className="chart-p50" d={path((d) => d.duration_p50)} />
    </svg>
  );
}
