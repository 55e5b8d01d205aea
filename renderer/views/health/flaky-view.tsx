import { getFlakyJobs } from '../../api/health.ts';
import { EmptyState, ErrorBox, SkeletonCard } from '../../components/feedback.tsx';
import { timeAgo } from '../../lib/format.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { describeSince } from '../../lib/since.ts';
import { HealthToolbar, PipelineLink } from './health-parts.tsx';
import './health.css';

/** Flaky jobs: job names that failed and passed on the same commit, most flakes first. */
export default function FlakyView() {
  const now = useNow();
  const [state, reload] = useAsync((signal) => getFlakyJobs(signal), []);
  if (state.status === 'error' && !state.data)
    return <ErrorBox title="Cannot load flaky jobs" message={state.error} onRetry={reload} />;
  const data = state.data;
  return (
    <div className="health-view">
      <HealthToolbar active="flaky" />
      {!data ? (
        <SkeletonCard rows={5} height={40} />
      ) : data.jobs.length === 0 ? (
        <EmptyState title="No flaky jobs">
          <p>
            No job failed and then passed on the same commit in the last{' '}
            {describeSince(data.window.since)}.
          </p>
        </EmptyState>
      ) : (
        <div className="card">
          <p className="muted small flaky-note">
            A flake: a job failed and passed on the same commit — a retry in the same pipeline, or
            another pipeline of that commit — in the last {describeSince(data.window.since)}.
          </p>
          <table className="health-table" aria-label="Flaky jobs">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col" className="num">
                  Flakes
                </th>
                <th scope="col" className="num">
                  Rate
                </th>
                <th scope="col">Last flake</th>
                <th scope="col">Projects</th>
              </tr>
            </thead>
            <tbody>
              {data.jobs.map((j) => (
                <tr key={j.job_name}>
                  <td>
                    <strong>{j.job_name}</strong>
                    <span className="tag tag-flaky">flaky</span>
                  </td>
                  <td className="num">{j.flakes}</td>
                  <td className="num" title={`${j.flakes} of ${j.runs} runs`}>
                    {j.flake_rate.toFixed(1)}%
                  </td>
                  <td>
                    <PipelineLink pipeline={j.last_flake} /> in {j.last_flake.project_name}{' '}
                    <span className="muted small">
                      ({j.last_flake.kind === 'retry' ? 'passed on retry' : 'passed on same commit'}
                      , <span title={j.last_flake.at}>{timeAgo(j.last_flake.at, now)}</span>)
                    </span>
                  </td>
                  <td className="small">
                    {j.projects.map((p) => `${p.project_name} (${p.flakes})`).join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
