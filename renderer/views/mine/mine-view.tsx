import type { MyMergeRequest, TriageFailure, TriageVerdict } from '../../../server/contract.ts';
import { getMyMergeRequests } from '../../api/triage.ts';
import { EmptyState, ErrorBox, SkeletonCard } from '../../components/feedback.tsx';
import { Icon } from '../../components/icons.tsx';
import { useSignedFailures } from '../../app-context.ts';
import { useAsync } from '../../lib/hooks.ts';
import { navigate, pipelinePath } from '../../lib/router.ts';
import '../triage.css';

/** The words of each verdict, and what it asks of the author. */
const VERDICT: Record<TriageVerdict, { label: string; hint: string }> = {
  'broken-on-default': { label: 'Broken on the target branch', hint: 'not yours' },
  flaky: { label: 'Flaky', hint: 'retry it' },
  new: { label: 'New failure', hint: 'yours to fix' },
  unknown: { label: 'Unknown', hint: 'not enough history' },
};

function FailureItem({ mr, failure }: { mr: MyMergeRequest; failure: TriageFailure }) {
  const v = VERDICT[failure.verdict];
  return (
    <li className={`mine-failure verdict-${failure.verdict}`} data-testid="mine-failure">
      <button
        type="button"
        className="mine-failure-open"
        onClick={() =>
          mr.pipeline &&
          navigate(pipelinePath(mr.project_id, mr.pipeline.pipeline_id, failure.job_id, 'ai'))
        }
        title="Open the job and its analysis"
      >
        <Icon.cross size={11} className="status-failed" /> <strong>{failure.job_name}</strong>{' '}
        <span className="muted small">({failure.stage})</span>
      </button>
      <span className={`verdict-chip verdict-${failure.verdict}`} data-verdict={failure.verdict}>
        {v.label} · {v.hint}
      </span>
      <span className="mine-evidence">{failure.evidence.text}</span>
    </li>
  );
}

function MergeRequestCard({ mr }: { mr: MyMergeRequest }) {
  return (
    <li className="card mine-mr" data-testid="mine-mr" data-iid={mr.iid}>
      <div className="mine-mr-head">
        <a href={mr.web_url} target="_blank" rel="noreferrer">
          <strong>
            {mr.project_name} !{mr.iid}
          </strong>{' '}
          {mr.title}
        </a>
        <span className="muted small">
          {mr.source_branch} → {mr.target_branch}
        </span>
        {mr.pipeline ? (
          <button
            type="button"
            className={`status-badge status-${mr.pipeline.status}`}
            onClick={() => navigate(pipelinePath(mr.project_id, mr.pipeline!.pipeline_id))}
          >
            #{mr.pipeline.pipeline_id} {mr.pipeline.status}
          </button>
        ) : (
          <span className="muted small">no pipeline in the history</span>
        )}
      </div>
      {mr.failures.length > 0 && (
        <ul className="mine-failures">
          {mr.failures.map((f) => (
            <FailureItem key={f.job_id} mr={mr} failure={f} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * My merge requests: the GitLab token user's open MRs in the group, failing ones first, each
 * failing job with a verdict — broken on the target branch, flaky, new, or unknown — and why.
 */
export default function MineView() {
  const [state, reload] = useAsync((signal) => getMyMergeRequests(signal), []);
  // Failures are answered with the signatures known; the rest arrive over the event stream.
  useSignedFailures(
    state.data?.merge_requests.flatMap((m) => (m.pipeline ? [m.pipeline.pipeline_id] : [])) ?? [],
    reload,
  );
  if (state.status === 'error' && !state.data)
    return (
      <ErrorBox title="Cannot load your merge requests" message={state.error} onRetry={reload} />
    );
  const data = state.data;
  if (!data) return <SkeletonCard rows={4} height={60} />;
  return (
    <div className="mine-view">
      <h1 className="view-title">
        My merge requests <span className="muted small">@{data.user.username}</span>
      </h1>
      {data.merge_requests.length === 0 ? (
        <EmptyState title="No open merge requests">
          <p>{data.user.name} has no open merge request in this group.</p>
        </EmptyState>
      ) : (
        <ul className="mine-list">
          {data.merge_requests.map((mr) => (
            <MergeRequestCard key={`${mr.project_id}!${mr.iid}`} mr={mr} />
          ))}
        </ul>
      )}
    </div>
  );
}
