import { useState } from 'react';
import type { DefaultBranchHealth, SuccessRateSplit } from '../../../server/contract.ts';
import { failuresPath, getDefaultBranches } from '../../api/health.ts';
import { EmptyState, ErrorBox, SkeletonCard } from '../../components/feedback.tsx';
import { StatusBadge } from '../../components/icons.tsx';
import { formatDuration, formatRate, timeAgo } from '../../lib/format.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { pipelinePath } from '../../lib/router.ts';
import { AppLink } from '../../components/app-link.tsx';
import { HealthToolbar, PipelineLink } from './health-parts.tsx';
import './health.css';

type RateScope = keyof SuccessRateSplit;
const SCOPES: { id: RateScope; label: string }[] = [
  { id: 'default_branch', label: 'Default branch' },
  { id: 'merge_requests', label: 'Merge requests' },
  { id: 'all', label: 'All' },
];

/** The jobs that failed in the pipeline that broke the branch, blocking ones first (item 2). */
function BrokenJobs({ p }: { p: DefaultBranchHealth }) {
  const jobs = p.broken_jobs ?? [];
  if (!p.broken_since || jobs.length === 0) return null;
  const shown = jobs.slice(0, 3);
  return (
    <span className="broken-jobs" data-testid="broken-jobs">
      {' '}
      ·{' '}
      {shown.map((j, i) => (
        <span key={j.job_id}>
          {i > 0 && ', '}
          <AppLink
            href={pipelinePath(p.project_id, p.broken_since!.pipeline_id, j.job_id)}
            className="failed-job-name"
            title={j.failure_reason ?? undefined}
          >
            {j.name}
          </AppLink>
          {j.allow_failure && <span className="muted"> (allowed)</span>}
        </span>
      ))}
      {jobs.length > shown.length && <span className="muted"> +{jobs.length - shown.length}</span>}{' '}
      failed
    </span>
  );
}

function BranchRow({ p, scope, now }: { p: DefaultBranchHealth; scope: RateScope; now: Date }) {
  const rate = p.success_rates[scope];
  const since = p.broken_since;
  return (
    <li className={`branch-row branch-${p.state}`}>
      <div className="branch-head">
        <span className={`branch-dot branch-dot-${p.state}`} aria-hidden="true" />
        <strong className="branch-project">{p.project_name}</strong>
        <span className="ref-chip">{p.default_branch || '—'}</span>
        <span className="branch-state">{p.state === 'unknown' ? 'no pipelines' : p.state}</span>
        <span className="toolbar-spacer" />
        <span className="muted small" title="Success rate over the window">
          {rate.successful + rate.failed === 0 ? '—' : formatRate(rate.success_rate)}
        </span>
        {p.latest && <StatusBadge status={p.latest.status} />}
      </div>
      {since && (
        <div className="branch-broken">
          Broken since <PipelineLink pipeline={since} /> at{' '}
          <strong>{since.commit_title ?? since.short_sha}</strong>
          {since.commit_author && <> by {since.commit_author}</>},{' '}
          <span title={since.created_at}>{timeAgo(since.created_at, now)}</span>
          <BrokenJobs p={p} />
          {p.pipelines_since_count > 0 && (
            <span className="muted">
              {' '}
              · {p.pipelines_since_count} pipeline{p.pipelines_since_count === 1 ? '' : 's'} since:{' '}
              {p.pipelines_since.slice(0, 6).map((q) => (
                <span key={q.pipeline_id} className={`since-pill status-${q.status}`}>
                  <PipelineLink pipeline={q} />
                </span>
              ))}
            </span>
          )}
        </div>
      )}
      {p.time_to_fix.fixes > 0 && (
        <div className="muted small">
          Fixed {p.time_to_fix.fixes}× in the window · median time to fix{' '}
          {formatDuration(p.time_to_fix.median_seconds)} · longest{' '}
          {formatDuration(p.time_to_fix.max_seconds)}
        </div>
      )}
    </li>
  );
}

/** Group health: every default branch, broken first, with since when and what ran since. */
export default function HealthView() {
  const now = useNow();
  const [scope, setScope] = useState<RateScope>('default_branch');
  const [state, reload] = useAsync((signal) => getDefaultBranches(signal), []);
  if (state.status === 'error' && !state.data)
    return <ErrorBox title="Cannot load group health" message={state.error} onRetry={reload} />;
  const data = state.data;
  return (
    <div className="health-view">
      <HealthToolbar active="branches" />
      {!data ? (
        <SkeletonCard rows={5} height={44} />
      ) : data.projects.length === 0 ? (
        <EmptyState title="No projects yet">
          <p>Group health appears once the first pipelines of the group were read.</p>
        </EmptyState>
      ) : (
        <>
          <div className="health-tiles">
            <div className={`health-tile ${data.broken > 0 ? 'tile-bad' : 'tile-good'}`}>
              <span className="tile-value" data-testid="broken-count">
                {data.broken}
              </span>
              <span className="tile-label">
                default branch{data.broken === 1 ? '' : 'es'} broken
              </span>
            </div>
            <div className="health-tile">
              <span className="tile-value">{data.passing}</span>
              <span className="tile-label">passing</span>
            </div>
            <div className="health-tile">
              <span className="tile-value">{formatDuration(data.time_to_fix.median_seconds)}</span>
              <span className="tile-label">
                median time to fix ({data.time_to_fix.fixes}{' '}
                {data.time_to_fix.fixes === 1 ? 'fix' : 'fixes'})
              </span>
            </div>
            <div className="health-tile">
              <span className="tile-value">
                {formatRate(data.success_rates[scope].success_rate)}
              </span>
              <span className="tile-label">
                success rate ·{' '}
                {/* The list this opens counts what the number counts: same scope, same window. */}
                <AppLink
                  href={failuresPath({ scope: scope === 'all' ? undefined : scope })}
                  data-testid="scope-failed-link"
                >
                  {data.success_rates[scope].failed} failed
                </AppLink>
              </span>
            </div>
          </div>
          <div className="toolbar">
            <span className="muted small">Success rate of</span>
            <div className="segmented" role="radiogroup" aria-label="Success rate of">
              {SCOPES.map((s) => (
                <button
                  key={s.id}
                  type="button"
                  role="radio"
                  aria-checked={scope === s.id}
                  onClick={() => setScope(s.id)}
                >
                  {s.label}
                </button>
              ))}
            </div>
          </div>
          <ul className="card branch-list" aria-label="Default branches">
            {data.projects.map((p) => (
              <BranchRow key={p.project_id} p={p} scope={scope} now={now} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
