import { useState } from 'react';
import type { DurationRegression, JobTrend, TrendsResponse } from '../../../server/contract.ts';
import { getRegressions, getTrends } from '../../api/health.ts';
import { useFeedState } from '../../app-context.ts';
import { EmptyState, ErrorBox, Skeleton } from '../../components/feedback.tsx';
import { formatDuration } from '../../lib/format.ts';
import { useAsync } from '../../lib/hooks.ts';
import { dayLabel, DurationChart, DurationLegend } from './duration-chart.tsx';
import { HealthToolbar, PipelineLink } from './health-parts.tsx';
import './health.css';

const TREND_DAYS = 30;

function RegressionLine({ r }: { r: DurationRegression }) {
  return (
    <span>
      <strong>{r.job_name ?? 'pipeline'}</strong> in {r.project_name}:{' '}
      {formatDuration(r.recent_median)}{' '}
      <span className="muted">was {formatDuration(r.baseline_median)}</span>{' '}
      <span className="tag tag-slower">{r.ratio.toFixed(2)}×</span> since{' '}
      <PipelineLink
        pipeline={{ project_id: r.project_id, pipeline_id: r.first_slow.pipeline_id }}
      />{' '}
      at <strong>{r.first_slow.commit_title ?? r.first_slow.short_sha}</strong>
      {r.first_slow.commit_author && <> by {r.first_slow.commit_author}</>}
    </span>
  );
}

/** The section's title from the days the data covers (server-computed), not the days asked for. */
export function trendsTitle(trends: TrendsResponse | null): string {
  if (!trends) return 'Daily durations';
  if (!trends.data_from || !trends.data_to)
    return `Daily durations · no runs in the last ${TREND_DAYS} days`;
  const span = trends.data_days === 1 ? '1 day' : `${trends.data_days} days`;
  const range =
    trends.data_from === trends.data_to
      ? dayLabel(trends.data_from)
      : `${dayLabel(trends.data_from)} – ${dayLabel(trends.data_to)}`;
  return `Daily durations · ${span} (${range})`;
}

function TrendCard({
  trend,
  from,
  to,
}: {
  trend: JobTrend;
  /** The days the data covers: the chart spends its width on them only. */
  from: string | null;
  to: string | null;
}) {
  const days = from && to ? trend.days.filter((d) => d.day >= from && d.day <= to) : trend.days;
  const withRuns = days.filter((d) => d.runs > 0);
  const last = withRuns[withRuns.length - 1];
  return (
    <div
      className={`trend-card ${trend.regression ? 'trend-regressed' : ''}`}
      data-testid="trend-card"
    >
      <div className="trend-head">
        <strong>{trend.job_name}</strong>
        {trend.regression && (
          <span className="tag tag-slower">{trend.regression.ratio.toFixed(2)}× slower</span>
        )}
      </div>
      <DurationChart
        days={days}
        label={`${trend.job_name} duration per day`}
        markDay={trend.regression?.first_slow.created_at.slice(0, 10) ?? null}
      />
      <div className="muted small">
        {last
          ? `${dayLabel(last.day)}: p50 ${formatDuration(last.duration_p50)} · p90 ${formatDuration(last.duration_p90)} · queue p50 ${formatDuration(last.queued_p50)}`
          : 'no successful runs'}
      </div>
    </div>
  );
}

/** Durations: detected regressions, and one project's daily p50/p90 per job as small charts. */
export default function TrendsView() {
  const feed = useFeedState();
  const projects = feed.summary?.projects ?? [];
  const [regressions, reload] = useAsync((signal) => getRegressions(signal), []);
  const [picked, setPicked] = useState<number | null>(null);
  const projectId =
    picked ?? regressions.data?.regressions[0]?.project_id ?? projects[0]?.project_id ?? null;
  const [trends] = useAsync(
    (signal) =>
      projectId === null ? Promise.resolve(null) : getTrends(projectId, TREND_DAYS, signal),
    [projectId],
  );
  if (regressions.status === 'error' && !regressions.data)
    return (
      <ErrorBox
        title="Cannot load duration regressions"
        message={regressions.error}
        onRetry={reload}
      />
    );
  const rule = regressions.data?.rule;
  const covered = { from: trends.data?.data_from ?? null, to: trends.data?.data_to ?? null };
  return (
    <div className="health-view">
      <HealthToolbar active="trends" />
      <section className="card">
        <h2 className="card-title">Regressions</h2>
        {rule && (
          <p className="muted small">
            Median of the last {rule.recent_runs} successful runs ≥ {rule.ratio}× the median of the{' '}
            {rule.baseline_runs} before (at least {rule.min_baseline_runs}), and{' '}
            {rule.min_increase_seconds} s slower or more.
          </p>
        )}
        {!regressions.data ? (
          <Skeleton height={40} />
        ) : regressions.data.regressions.length === 0 ? (
          <p>No job got materially slower.</p>
        ) : (
          <ul className="regression-list" aria-label="Regressions">
            {regressions.data.regressions.map((r) => (
              <li key={`${r.project_id}/${r.job_name ?? ''}`}>
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Show ${r.project_name} trends`}
                  onClick={() => setPicked(r.project_id)}
                >
                  ↗
                </button>{' '}
                <RegressionLine r={r} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <div className="toolbar">
          <h2 className="card-title" data-testid="trends-title">
            {trendsTitle(trends.data ?? null)}
          </h2>
          <span className="toolbar-spacer" />
          <label className="small">
            Project{' '}
            <select
              value={projectId ?? ''}
              onChange={(e) => setPicked(Number(e.target.value))}
              aria-label="Project"
            >
              {projects.map((p) => (
                <option key={p.project_id} value={p.project_id}>
                  {p.project_name}
                </option>
              ))}
            </select>
          </label>
        </div>
        {projectId === null ? (
          <EmptyState title="No projects yet" />
        ) : trends.status === 'error' ? (
          <ErrorBox title="Cannot load trends" message={trends.error} />
        ) : !trends.data ? (
          <Skeleton height={80} />
        ) : (
          <>
            <DurationLegend
              marked={[trends.data.pipeline, ...trends.data.jobs].some((t) => t.regression)}
            />
            <div className="trend-grid">
              {[trends.data.pipeline, ...trends.data.jobs].map((t, i) => (
                <TrendCard
                  key={i === 0 ? '' : t.job_name}
                  trend={t}
                  from={covered.from}
                  to={covered.to}
                />
              ))}
            </div>
          </>
        )}
      </section>
    </div>
  );
}
