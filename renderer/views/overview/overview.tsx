import { useMemo } from 'react';
import type {
  ActivityResponse,
  ContributorActivity,
  ProjectSummary,
  RecentPipeline,
  SummaryResponse,
} from '../../../server/contract.ts';
import { useFeed, useFeedState } from '../../app-context.ts';
import { Avatar } from '../../components/avatar.tsx';
import { EmptyState, ErrorBox, Skeleton } from '../../components/feedback.tsx';
import { Icon } from '../../components/icons.tsx';
import { RefLabel } from '../../components/ref-label.tsx';
import { formatDuration, formatRate, rateBand, timeAgo } from '../../lib/format.ts';
import { useNow } from '../../lib/hooks.ts';
import { navigate, pipelinePath } from '../../lib/router.ts';
import { describeSince } from '../../lib/since.ts';
import { allRecentPipelines, timelineFromActivity } from '../../lib/timeline.ts';
import { failuresPath } from '../../api/health.ts';
import { DefaultBranchHeadline } from '../health/default-branch-headline.tsx';
import { SharedErrors } from './shared-errors.tsx';
import { TimelineChart } from './timeline-chart.tsx';
import { useActivity, type ActivityState } from './use-activity.ts';

function MetricCards({ data }: { data: SummaryResponse }) {
  const s = data.summary;
  const finished = s.successful + s.failed;
  const band = rateBand(s.overall_success_rate, finished);
  const since = data.status?.since;
  return (
    <section className="metric-grid" aria-label="Totals">
      <div className="metric-card" data-metric="total">
        <span className="metric-label">Pipelines</span>
        <span className="metric-value">{s.total_pipelines.toLocaleString()}</span>
        <span className="metric-sub">
          {since ? `in the last ${describeSince(since)}` : 'in the window'}
        </span>
      </div>
      <div className={`metric-card rate-${band}`} data-metric="success-rate">
        <span className="metric-label">Success rate</span>
        <span className="metric-value">{finished ? formatRate(s.overall_success_rate) : '—'}</span>
        <span className="metric-sub">
          {s.successful} passed · {s.failed} failed
        </span>
        <span className="rate-bar" aria-hidden="true">
          <span style={{ width: `${finished ? s.overall_success_rate : 0}%` }} />
        </span>
      </div>
      <div className={`metric-card${s.running ? ' metric-running' : ''}`} data-metric="running">
        <span className="metric-label">In progress</span>
        <span className="metric-value">
          {s.running > 0 && <span className="pulse" aria-hidden="true" />}
          {s.running}
        </span>
        <span className="metric-sub">
          {s.running === 1 ? 'pipeline running' : 'pipelines running'}
        </span>
      </div>
      <div className="metric-card" data-metric="duration">
        <span className="metric-label">Average duration</span>
        <span className="metric-value">{formatDuration(s.average_duration)}</span>
        <span className="metric-sub">per pipeline</span>
      </div>
    </section>
  );
}

function Contributors({ activity }: { activity: ActivityState }) {
  const top: ContributorActivity[] = useMemo(
    () => activity.activity?.contributors.slice(0, 6) ?? [],
    [activity.activity],
  );
  return (
    <section className="card" aria-labelledby="contributors-title">
      <h2 id="contributors-title" className="card-title">
        Top contributors
      </h2>
      {!activity.activity ? (
        activity.error ? (
          <p className="muted">Cannot load contributors: {activity.error}</p>
        ) : (
          <Skeleton height={120} />
        )
      ) : top.length === 0 ? (
        <p className="muted">No pipelines triggered by users in this window.</p>
      ) : (
        <ul className="contributor-list">
          {top.map((c) => {
            const band = rateBand(c.success_rate, c.successful + c.failed);
            return (
              <li key={c.username}>
                <Avatar name={c.name} url={c.avatar_url} size={30} />
                <div className="contributor-name">
                  <span>{c.name}</span>
                  <span className="muted">@{c.username}</span>
                </div>
                <span className="contributor-count" title="Pipelines in the window">
                  {c.pipelines}
                </span>
                <span className={`rate-chip rate-${band}`}>
                  {c.successful + c.failed ? formatRate(c.success_rate) : '—'}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function ActivityTimeline({ activity, onRetry }: { activity: ActivityState; onRetry: () => void }) {
  const data: ActivityResponse | null = activity.activity;
  const timeline = useMemo(() => (data ? timelineFromActivity(data) : null), [data]);
  const unit = timeline?.unit ?? 'hour';
  return (
    <section className="card" aria-labelledby="timeline-title" aria-busy={activity.loading}>
      <div className="card-head">
        <h2 id="timeline-title" className="card-title">
          Pipelines per {timeline && timeline.daysPerBar > 1 ? `${timeline.daysPerBar} days` : unit}
        </h2>
        {data && (
          <span className="muted small">
            the last {describeSince(data.since)}
            {unit === 'day' ? ' · UTC days' : ''}
          </span>
        )}
      </div>
      {activity.error && (
        <ErrorBox
          title={data ? 'The timeline may be out of date' : 'Cannot load the timeline'}
          message={activity.error}
          onRetry={onRetry}
        />
      )}
      {timeline ? (
        <TimelineChart
          timeline={timeline}
          onOpenFailures={(b) =>
            navigate(
              failuresPath({
                from: new Date(b.start).toISOString(),
                to: new Date(b.end).toISOString(),
              }),
            )
          }
        />
      ) : (
        !activity.error && <Skeleton height={200} />
      )}
    </section>
  );
}

function FailureRow({
  project,
  pipeline,
  now,
}: {
  project: ProjectSummary;
  pipeline: RecentPipeline;
  now: Date;
}) {
  // The service sends the failing job and commit title with the summary: no details fetch per row.
  const jobId = pipeline.failing_job_id ?? null;
  const title = pipeline.commit_title ?? null;
  const open = (tab?: 'log' | 'ai') =>
    navigate(pipelinePath(project.project_id, pipeline.pipeline_id, jobId, tab));
  return (
    <li className="failure-row">
      <button type="button" className="failure-main" onClick={() => open('log')}>
        <span className="failure-project">{project.project_name}</span>
        <RefLabel pipeline={pipeline} />
        <span className="failure-title">{title ?? `Pipeline #${pipeline.pipeline_id}`}</span>
        <span className="failure-meta">
          {pipeline.failing_job_name && (
            <span className="failure-job" data-testid="failing-job">
              <Icon.cross size={11} className="status-failed" /> {pipeline.failing_job_name}
            </span>
          )}
          {pipeline.user && (
            <Avatar name={pipeline.user.name} url={pipeline.user.avatar_url} size={18} />
          )}
          {pipeline.user?.name ?? 'unknown'} · {timeAgo(pipeline.created_at, now)}
        </span>
      </button>
      <div className="failure-actions">
        <button type="button" className="btn btn-small" onClick={() => open('log')}>
          <Icon.terminal size={14} /> Log
        </button>
        <button
          type="button"
          className="btn btn-small btn-ai"
          onClick={() => open('ai')}
          disabled={!jobId}
          title={jobId ? 'Analyse the failing job with AI' : 'No failed job to analyse'}
        >
          <Icon.sparkle size={14} /> Analyze
        </button>
      </div>
    </li>
  );
}

function RecentFailures({ projects, now }: { projects: ProjectSummary[]; now: Date }) {
  const failures = useMemo(
    () =>
      allRecentPipelines(projects)
        .filter((x) => x.pipeline.status === 'failed')
        .slice(0, 6),
    [projects],
  );
  return (
    <section className="card" aria-labelledby="failures-title">
      <h2 id="failures-title" className="card-title">
        Recent failures
      </h2>
      {failures.length === 0 ? (
        <p className="muted">No failed pipelines among recent ones. Nice.</p>
      ) : (
        <ul className="failure-list">
          {failures.map(({ project, pipeline }) => (
            <FailureRow
              key={pipeline.pipeline_id}
              project={project}
              pipeline={pipeline}
              now={now}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function OverviewSkeleton() {
  return (
    <div className="overview" aria-busy="true">
      <div className="metric-grid">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="metric-card">
            <Skeleton width={90} height={12} />
            <Skeleton width={120} height={30} />
          </div>
        ))}
      </div>
      <div className="card">
        <Skeleton height={180} />
      </div>
    </div>
  );
}

/** The overview: totals, the timeline, top contributors and recent failures. */
export function Overview() {
  const state = useFeedState();
  const feed = useFeed();
  const now = useNow();
  const data = state.summary;
  const [activity, reloadActivity] = useActivity();

  if (!data) {
    if (state.error)
      return (
        <ErrorBox
          title="Cannot load the pipeline summary"
          message={state.error}
          onRetry={() => feed.reconnectNow()}
        />
      );
    return <OverviewSkeleton />;
  }
  const status = data.status;
  if (data.projects.length === 0) {
    if (status?.state === 'loading') return <OverviewSkeleton />;
    return (
      <div className="overview">
        {status?.last_error && (
          <ErrorBox title="GitLab is not answering" message={status.last_error} />
        )}
        <EmptyState
          title="No pipelines in this window"
          action={
            <button type="button" className="btn btn-primary" onClick={() => navigate('/settings')}>
              Open settings
            </button>
          }
        >
          <p>
            {status
              ? `Group “${status.group}” has no pipelines in the last ${describeSince(status.since)}.`
              : 'The configured group has no pipelines in the window.'}{' '}
            Pick another group or widen the time window in Settings. Pipelines appear here live as
            soon as GitLab runs them.
          </p>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="overview">
      {status?.state === 'degraded' && status.last_error && (
        <ErrorBox
          title="GitLab is not answering — showing the last data we have"
          message={`${status.last_error}${status.last_updated ? ` (last update ${timeAgo(status.last_updated, now)})` : ''}`}
        />
      )}
      <DefaultBranchHeadline lastUpdate={state.lastUpdateAt ?? null} />
      <SharedErrors lastUpdate={state.lastUpdateAt ?? null} now={now} />
      <MetricCards data={data} />
      <ActivityTimeline activity={activity} onRetry={reloadActivity} />
      <div className="overview-columns">
        <RecentFailures projects={data.projects} now={now} />
        <Contributors activity={activity} />
      </div>
    </div>
  );
}
