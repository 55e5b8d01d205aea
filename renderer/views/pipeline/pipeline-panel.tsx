import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { FailedTests } from './failed-tests.tsx';
import type { JobDetails, PipelineDetails } from '../../../server/contract.ts';
import { getJobTrace } from '../../api/job-trace.ts';
import { getPipelineDetails } from '../../api/pipelines.ts';
import { Avatar } from '../../components/avatar.tsx';
import { ErrorBox, Skeleton, Spinner } from '../../components/feedback.tsx';
import { GreyStatusWord, Icon, StatusBadge, StatusIcon } from '../../components/icons.tsx';
import { RefLabel } from '../../components/ref-label.tsx';
import { formatDuration, isActive, sourceLabel, statusLabel, timeAgo } from '../../lib/format.ts';
import { useSignedFailures } from '../../app-context.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { preloadable } from '../../lib/preloadable.ts';
import { navigate, pipelinePath } from '../../lib/router.ts';

const jobLog = preloadable(() => import('./job-log.tsx'));
const aiPanel = preloadable(() => import('./ai-panel.tsx'));
const JobLog = jobLog.Component;
const AiPanel = aiPanel.Component;
// The panel's nested chunks load with the panel itself, not after its details arrive.
void jobLog.preload();
void aiPanel.preload();

/**
 * The job a pipeline opens at: the failing job the service names, else the running job, else the
 * last job that ran (so a running or green pipeline never opens on "Select a job").
 */
export function defaultJob(d: PipelineDetails): number | null {
  if (d.failing_job_id) return d.failing_job_id;
  const byId = [...d.jobs].sort((a, b) => a.id - b.id);
  const running = byId.find((j) => isActive(j.status) && j.started_at);
  if (running) return running.id;
  const ran = byId.filter((j) => j.started_at !== null);
  return (ran.at(-1) ?? byId.at(-1))?.id ?? null;
}
const PipelineAnalysisCard = lazy(() =>
  import('./ai-panel.tsx').then((m) => ({ default: m.PipelineAnalysisCard })),
);

/** Stages in pipeline order: GitLab creates a stage's jobs before the next stage's. */
export function groupByStage(jobs: readonly JobDetails[]): { stage: string; jobs: JobDetails[] }[] {
  const stages = new Map<string, JobDetails[]>();
  const order = new Map<string, number>();
  for (const j of [...jobs].sort((a, b) => a.id - b.id)) {
    if (!stages.has(j.stage)) {
      stages.set(j.stage, []);
      order.set(j.stage, order.size);
    }
    stages.get(j.stage)!.push(j);
  }
  return [...stages.entries()].map(([stage, list]) => ({
    stage,
    jobs: list.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true })),
  }));
}

function Header({ d, now }: { d: PipelineDetails; now: Date }) {
  return (
    <div className="panel-header-info">
      <div className="panel-title-row">
        <StatusBadge status={d.status} />
        <h2 id="pipeline-title">{d.commit?.title ?? `Pipeline #${d.pipeline_id}`}</h2>
      </div>
      <div className="panel-meta">
        <span className="meta-item">
          <strong>{d.project_name ?? `Project ${d.project_id}`}</strong>
        </span>
        <span className="meta-item">Pipeline #{d.pipeline_id}</span>
        <RefLabel pipeline={d} linked />
        <span className="meta-item muted">{sourceLabel(d.source)}</span>
        {d.commit && (
          <span className="meta-item" title={d.commit.message} data-testid="commit-author">
            <span className="meta-label">Commit</span> <code>{d.commit.short_id}</code>
            <span className="meta-label">authored by</span> {d.commit.author_name}
          </span>
        )}
        {d.user && (
          <span className="meta-item" data-testid="triggered-by">
            <span className="meta-label">Triggered by</span>
            <Avatar name={d.user.name} url={d.user.avatar_url} size={18} /> {d.user.name}
          </span>
        )}
      </div>
      <dl className="panel-times">
        <div>
          <dt>Created</dt>
          <dd title={d.created_at}>{timeAgo(d.created_at, now)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd title={d.started_at ?? ''}>{timeAgo(d.started_at, now)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd title={d.finished_at ?? ''}>
            {d.finished_at ? timeAgo(d.finished_at, now) : isActive(d.status) ? 'running…' : '—'}
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(d.duration)}</dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * A pipeline's details over the current view, deep-linkable as /pipelines/:projectId/:pipelineId
 * (?job= selects a job, &tab=ai opens its analysis). It refreshes itself while the pipeline runs.
 */
export default function PipelinePanel(props: {
  projectId: number;
  pipelineId: number;
  jobId: number | null;
  tab: 'log' | 'ai';
  onClose: () => void;
}) {
  const { projectId, pipelineId, jobId, tab, onClose } = props;
  const now = useNow();
  const [state, reload] = useAsync(
    (signal) => getPipelineDetails(projectId, pipelineId, signal),
    [projectId, pipelineId],
  );
  const data = state.data;
  // Past fixes need the failed jobs' signatures, read in the background: asked again when they land.
  useSignedFailures([pipelineId], reload);
  // A job named in the address (a failure row names the failing one) has its log fetched now, in
  // parallel with the details, instead of once the details have arrived.
  useEffect(() => {
    if (jobId !== null && tab === 'log') getJobTrace(projectId, jobId).catch(() => undefined);
  }, [projectId, jobId, tab]);
  const active = data ? isActive(data.status) || data.jobs.some((j) => isActive(j.status)) : false;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(reload, 5_000);
    return () => clearInterval(t);
  }, [active, reload]);

  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialogRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !(e.target as HTMLElement).closest?.('.log-search')) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  // A failed pipeline opens on the job that broke it (the service picks it), a running one on its
  // running job, a finished one on its last job: the log is never one more click away.
  useEffect(() => {
    if (!data || jobId !== null) return;
    const job = defaultJob(data);
    if (job) navigate(pipelinePath(projectId, pipelineId, job), { replace: true });
  }, [data, jobId, projectId, pipelineId]);
  // With a job open, the header and stages fold into one line so the log gets the height.
  const [details, setDetails] = useState(false);

  const stages = useMemo(() => (data ? groupByStage(data.jobs) : []), [data]);
  const selected = data?.jobs.find((j) => j.id === jobId) ?? null;
  // A job named in the address shows its log while the details are still on their way.
  const early = !data && jobId !== null && tab === 'log';
  const compact = (selected !== null || early) && !details;
  const select = (job: JobDetails, t: 'log' | 'ai' = 'log') =>
    navigate(pipelinePath(projectId, pipelineId, job.id, t), { replace: true });

  return (
    <div className="panel-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="pipeline-title"
        ref={dialogRef}
        tabIndex={-1}
      >
        <div className="panel-toolbar">
          <span className="muted small">Pipeline details</span>
          <div className="panel-toolbar-actions">
            {data?.web_url && (
              <a
                className="btn btn-small"
                href={data.web_url}
                target="_blank"
                rel="noreferrer noopener"
              >
                Open in GitLab <Icon.external size={13} />
              </a>
            )}
            <button
              type="button"
              className="icon-button"
              onClick={onClose}
              aria-label="Close pipeline details (Esc)"
            >
              <Icon.close />
            </button>
          </div>
        </div>
        {!data && state.status === 'error' ? (
          <div className="panel-body">
            <h2 id="pipeline-title" className="visually-hidden">
              Pipeline #{pipelineId}
            </h2>
            <ErrorBox
              title={state.httpStatus === 404 ? 'Pipeline not found' : 'Cannot load this pipeline'}
              message={state.error}
              onRetry={reload}
            />
          </div>
        ) : !data && !early ? (
          <div className="panel-body">
            <h2 id="pipeline-title" className="visually-hidden">
              Loading pipeline #{pipelineId}
            </h2>
            <Skeleton height={28} width="60%" />
            <Skeleton height={16} width="40%" />
            <Skeleton height={120} />
          </div>
        ) : (
          <div className={`panel-body${compact ? ' panel-body-compact' : ''}`}>
            {early && (
              <div className="panel-summary">
                <h2 id="pipeline-title" className="visually-hidden">
                  Loading pipeline #{pipelineId}
                </h2>
                <Skeleton height={22} width="50%" />
              </div>
            )}
            {data && selected && (
              <div className="panel-summary">
                {compact && (
                  <>
                    <StatusBadge status={data.status} />
                    <h2 id="pipeline-title" className="panel-summary-title">
                      {data.commit?.title ?? `Pipeline #${data.pipeline_id}`}
                    </h2>
                    <span className="muted small panel-summary-meta">
                      {data.project_name ?? `Project ${data.project_id}`} · #{data.pipeline_id} ·{' '}
                      {data.ref_label ?? data.ref}
                    </span>
                  </>
                )}
                <button
                  type="button"
                  className="btn btn-small panel-summary-toggle"
                  aria-expanded={!compact}
                  onClick={() => setDetails((v) => !v)}
                >
                  <Icon.chevron size={12} className="chevron" />
                  {compact ? 'Jobs and details' : 'Hide jobs and details'}
                </button>
              </div>
            )}
            {data && !compact && <Header d={data} now={now} />}
            {data && !compact && (
              <section className="stages" aria-label="Jobs by stage">
                {stages.map(({ stage, jobs }) => (
                  <div key={stage} className="stage">
                    <h3 className="stage-name">{stage}</h3>
                    <ul>
                      {jobs.map((j) => (
                        <li key={j.id}>
                          <button
                            type="button"
                            className={`job-chip${selected?.id === j.id ? ' selected' : ''}`}
                            aria-pressed={selected?.id === j.id}
                            onClick={() => select(j)}
                            data-job-id={j.id}
                            title={`${j.name}: ${statusLabel(j.status)}${j.failure_reason ? ` (${j.failure_reason.replace(/_/g, ' ')})` : ''}`}
                          >
                            <StatusIcon status={j.status} size={16} />
                            <span className="job-name">{j.name}</span>
                            <GreyStatusWord status={j.status} />
                            {j.allow_failure && j.status === 'failed' && (
                              <span className="tag">allowed</span>
                            )}
                            <span className="job-duration">{formatDuration(j.duration)}</span>
                          </button>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
                {stages.length === 0 && <p className="muted">This pipeline has no jobs.</p>}
              </section>
            )}
            {data && !compact && data.bridges && data.bridges.length > 0 && (
              // Trigger jobs are not in `jobs`: a parent that failed because its child failed says so.
              <section className="stages" aria-label="Triggered pipelines">
                <div className="stage">
                  <h3 className="stage-name">Triggered pipelines</h3>
                  <ul>
                    {data.bridges.map((b) => (
                      <li key={b.id} className="job-chip" data-bridge-id={b.id}>
                        <StatusIcon status={b.status} size={16} />
                        <span className="job-name">{b.name}</span>
                        {b.downstream_pipeline ? (
                          <a
                            href={b.downstream_pipeline.web_url}
                            target="_blank"
                            rel="noreferrer noopener"
                          >
                            #{b.downstream_pipeline.id} {statusLabel(b.downstream_pipeline.status)}{' '}
                            <Icon.external size={12} />
                          </a>
                        ) : (
                          <span className="muted">not started</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
              </section>
            )}
            {data && !compact && data.jobs.filter((j) => j.status === 'failed').length > 1 && (
              <Suspense fallback={null}>
                <PipelineAnalysisCard
                  projectId={projectId}
                  pipelineId={pipelineId}
                  failedJobs={data.jobs.filter((j) => j.status === 'failed').length}
                  onOpenJob={(id) =>
                    navigate(pipelinePath(projectId, pipelineId, id, 'ai'), { replace: true })
                  }
                />
              </Suspense>
            )}
            {data?.failed_tests && (
              <FailedTests
                projectId={projectId}
                pipelineId={pipelineId}
                tests={data.failed_tests}
              />
            )}
            {selected || early ? (
              <section
                className="job-pane"
                aria-label={selected ? `Job ${selected.name}` : `Job ${jobId}`}
              >
                <div className="job-pane-head">
                  {selected ? (
                    <>
                      <div className="job-pane-title">
                        <StatusIcon status={selected.status} size={18} />
                        <strong>{selected.name}</strong>
                        <span className="muted">
                          {selected.stage} · {formatDuration(selected.duration)}
                          {selected.failure_reason
                            ? ` · ${selected.failure_reason.replace(/_/g, ' ')}`
                            : ''}
                        </span>
                      </div>
                      <div className="tabs" role="tablist">
                        <button
                          type="button"
                          role="tab"
                          aria-selected={tab === 'log'}
                          onClick={() => select(selected, 'log')}
                        >
                          <Icon.terminal size={14} /> Log
                        </button>
                        {selected.status === 'failed' && (
                          <button
                            type="button"
                            role="tab"
                            aria-selected={tab === 'ai'}
                            onClick={() => select(selected, 'ai')}
                          >
                            <Icon.sparkle size={14} /> Analyze with AI
                          </button>
                        )}
                      </div>
                    </>
                  ) : (
                    <Skeleton height={18} width="30%" />
                  )}
                </div>
                <Suspense
                  fallback={
                    <div className="view-loading">
                      <Spinner />
                    </div>
                  }
                >
                  {selected && tab === 'ai' && selected.status === 'failed' ? (
                    <AiPanel
                      key={selected.id}
                      projectId={projectId}
                      pipelineId={pipelineId}
                      job={selected}
                    />
                  ) : (
                    <JobLog
                      key={selected?.id ?? jobId!}
                      projectId={projectId}
                      jobId={selected?.id ?? jobId!}
                      jobStatus={selected?.status ?? 'unknown'}
                      jobUrl={selected?.web_url}
                    />
                  )}
                </Suspense>
              </section>
            ) : (
              data &&
              data.jobs.length > 0 && (
                <p className="job-hint muted">
                  Select a job to read its log
                  {data.status === 'failed' ? ' or analyse its failure with AI' : ''}.
                </p>
              )
            )}
          </div>
        )}
      </div>
    </div>
  );
}
