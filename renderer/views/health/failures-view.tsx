import { useEffect, useMemo, useRef, useState } from 'react';
import type { FailuresQuery } from '../../api/health.ts';
import { failuresPath, getFailures } from '../../api/health.ts';
import { useFeedState } from '../../app-context.ts';
import { EmptyState, ErrorBox, SkeletonCard } from '../../components/feedback.tsx';
import { ProjectSelect } from '../../components/project-select.tsx';
import { Icon } from '../../components/icons.tsx';
import { sourceLabel, timeAgo } from '../../lib/format.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { navigate, pipelinePath } from '../../lib/router.ts';
import { RefLabel } from '../../components/ref-label.tsx';
import { PipelineLink } from './health-parts.tsx';
import './health.css';

const PAGE_SIZE = 25;
const SOURCES = ['push', 'merge_request_event', 'schedule', 'web', 'trigger', 'api', 'pipeline'];

/** The failures view's filters from its URL query. Exported for tests. */
export function parseFailuresQuery(search: string): FailuresQuery {
  const q = new URLSearchParams(search);
  const text = (k: string) => q.get(k)?.trim() || undefined;
  const projectId = Number(q.get('projectId'));
  const page = Number(q.get('page'));
  const flaky = q.get('flaky');
  const scope = q.get('scope');
  return {
    projectId: Number.isInteger(projectId) && projectId > 0 ? projectId : undefined,
    ref: text('ref'),
    source: text('source'),
    scope: scope === 'default_branch' || scope === 'merge_requests' ? scope : undefined,
    user: text('user'),
    flaky: flaky === 'true' || flaky === 'false' ? flaky : undefined,
    from: text('from'),
    to: text('to'),
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}

/** Typing pauses this long before the list is asked again (each change is a request). */
const TYPING_PAUSE_MS = 300;

/**
 * The branch filter: applies as you type, like the projects filter, once typing pauses (Enter
 * applies at once); follows the URL when it changes elsewhere (Back, Clear).
 */
function BranchFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (ref: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const applied = useRef(value);
  const change = useRef(onChange);
  change.current = onChange;
  useEffect(() => {
    if (value === applied.current) return;
    applied.current = value;
    setText(value ?? '');
  }, [value]);
  const apply = (raw: string) => {
    const next = raw.trim() || undefined;
    if (next === applied.current) return;
    applied.current = next;
    change.current(next);
  };
  useEffect(() => {
    const timer = setTimeout(() => apply(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <input
      type="text"
      aria-label="Branch"
      placeholder="Branch or !MR"
      title="Filters as you type: a branch, a tag or !406 for a merge request"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') apply(e.currentTarget.value);
      }}
    />
  );
}

/** Every failed pipeline in the window, filterable; its URL holds the filters (chart bars link here). */
export default function FailuresView({ search }: { search: string }) {
  const now = useNow();
  const feed = useFeedState();
  // By name, so the list neither follows the summary's activity order nor reorders between loads.
  const projects = useMemo(
    () =>
      [...(feed.summary?.projects ?? [])]
        .map((p) => ({ id: p.project_id, name: p.project_path ?? p.project_name }))
        .sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }) || a.id - b.id),
    [feed.summary?.projects],
  );
  const query = parseFailuresQuery(search);
  const [state, reload] = useAsync(
    (signal) => getFailures({ ...query, pageSize: PAGE_SIZE }, signal),
    [search],
  );
  const update = (patch: Partial<FailuresQuery>) =>
    navigate(failuresPath({ ...query, page: undefined, ...patch }), { replace: true });
  const data = state.data;
  return (
    <div className="failures-view">
      <div className="toolbar">
        <h1 className="view-title">Failures</h1>
        {data && (
          <span className="muted small" data-testid="failure-count">
            {data.pagination.totalCount} failed pipeline
            {data.pagination.totalCount === 1 ? '' : 's'}
          </span>
        )}
      </div>
      <form className="failure-filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <ProjectSelect
          projects={projects}
          value={query.projectId}
          onChange={(projectId) => update({ projectId })}
        />
        <select
          aria-label="Branches"
          value={query.scope ?? ''}
          onChange={(e) =>
            update({ scope: (e.target.value || undefined) as FailuresQuery['scope'] })
          }
        >
          <option value="">Any branch</option>
          <option value="default_branch">Default branches</option>
          <option value="merge_requests">Merge requests</option>
        </select>
        <BranchFilter value={query.ref} onChange={(ref) => update({ ref })} />
        <select
          aria-label="Source"
          value={query.source ?? ''}
          onChange={(e) => update({ source: e.target.value || undefined })}
        >
          <option value="">Any source</option>
          {SOURCES.map((s) => (
            <option key={s} value={s}>
              {sourceLabel(s)}
            </option>
          ))}
        </select>
        <select
          aria-label="Flaky"
          value={query.flaky ?? ''}
          onChange={(e) =>
            update({ flaky: (e.target.value || undefined) as FailuresQuery['flaky'] })
          }
        >
          <option value="">Flaky or not</option>
          <option value="true">Only flaky</option>
          <option value="false">Not flaky</option>
        </select>
        <label className="small check">
          <input
            type="checkbox"
            checked={query.user === 'mine'}
            onChange={(e) => update({ user: e.target.checked ? 'mine' : undefined })}
          />{' '}
          Mine
        </label>
        {(query.from || query.to) && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => update({ from: undefined, to: undefined })}
            title="Show the whole window"
          >
            {query.from?.slice(0, 16).replace('T', ' ')} –{' '}
            {query.to?.slice(0, 16).replace('T', ' ')} <Icon.close size={10} />
          </button>
        )}
      </form>
      {state.status === 'error' && !data ? (
        <ErrorBox title="Cannot load failures" message={state.error} onRetry={reload} />
      ) : !data ? (
        <SkeletonCard rows={6} height={44} />
      ) : data.failures.length === 0 ? (
        <EmptyState title="No failures match">
          <p>No failed pipeline in the window matches these filters.</p>
        </EmptyState>
      ) : (
        <>
          <ul className="card fail-list" aria-label="Failed pipelines">
            {data.failures.map((f) => (
              <li key={f.pipeline.pipeline_id} className="fail-row">
                <div className="fail-head">
                  <Icon.cross size={14} className="status-failed" />
                  <strong>{f.project_name}</strong>
                  <PipelineLink pipeline={f.pipeline} />
                  <RefLabel pipeline={f.pipeline} linked />
                  {f.flaky && <span className="tag tag-flaky">flaky</span>}
                  <span className="toolbar-spacer" />
                  <span className="muted small">
                    {sourceLabel(f.pipeline.source)} · {f.pipeline.user?.name ?? 'unknown'} ·{' '}
                    <span title={f.pipeline.created_at}>{timeAgo(f.pipeline.created_at, now)}</span>
                  </span>
                </div>
                <div className="fail-body">
                  {f.pipeline.commit_title && (
                    <span className="muted small">{f.pipeline.commit_title}</span>
                  )}
                  {f.failed_jobs.map((j) => {
                    const href = pipelinePath(f.project_id, f.pipeline.pipeline_id, j.job_id);
                    return (
                      <a
                        key={j.job_id}
                        className={`failed-job ${j.flaky ? 'is-flaky' : ''}`}
                        href={href}
                        onClick={(e) => {
                          e.preventDefault();
                          navigate(href);
                        }}
                        title={j.failure_reason ?? undefined}
                      >
                        {j.name}
                        {j.passed_on_same_commit ? (
                          <span className="tag tag-flaky">passed on same commit</span>
                        ) : (
                          j.flaky && <span className="tag tag-flaky">flaky</span>
                        )}
                        {j.allow_failure && <span className="tag">allowed</span>}
                      </a>
                    );
                  })}
                </div>
              </li>
            ))}
          </ul>
          <nav className="pagination" aria-label="Failure pages">
            <button
              type="button"
              className="btn btn-small"
              disabled={data.pagination.currentPage <= 1}
              onClick={() =>
                navigate(failuresPath({ ...query, page: data.pagination.currentPage - 1 }))
              }
            >
              Newer
            </button>
            <span className="muted small">
              Page {data.pagination.currentPage} of {data.pagination.totalPages}
            </span>
            <button
              type="button"
              className="btn btn-small"
              disabled={data.pagination.currentPage >= data.pagination.totalPages}
              onClick={() =>
                navigate(failuresPath({ ...query, page: data.pagination.currentPage + 1 }))
              }
            >
              Older
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
