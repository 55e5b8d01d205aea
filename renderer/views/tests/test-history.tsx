import { getTestHistory } from '../../api/tests.ts';
import { AppLink } from '../../components/app-link.tsx';
import { ErrorBox, Skeleton } from '../../components/feedback.tsx';
import { useAsync } from '../../lib/hooks.ts';
import { pipelinePath } from '../../lib/router.ts';
import './tests.css';

const SHOWN = 30;

/**
 * A test's recent results as a strip of marks (newest first), with its failure and flake rates:
 * what "failing since", "flaky" and "passed last time" rest on.
 */
export function TestHistory(props: { projectId: number; classname: string; name: string }) {
  const { projectId, classname, name } = props;
  const [state, reload] = useAsync(
    (signal) => getTestHistory(projectId, classname, name, signal),
    [projectId, classname, name],
  );
  if (state.status === 'error' && !state.data)
    return <ErrorBox title="Cannot load its history" message={state.error} onRetry={reload} />;
  const h = state.data;
  if (!h) return <Skeleton height={22} width="60%" />;
  return (
    <div className="test-history" aria-label={`History of ${name}`}>
      <p className="small">
        Failed {h.failures} of {h.runs} runs ({h.failure_rate.toFixed(1)}%)
        {h.flakes > 0
          ? ` · flaky: ${h.flakes} of ${h.runs} runs (${h.flake_rate.toFixed(1)}%)`
          : ''}
      </p>
      <ol className="test-marks">
        {h.results.slice(0, SHOWN).map((r, i) => (
          <li key={`${r.pipeline_id}-${r.job_id ?? i}`}>
            <AppLink
              href={pipelinePath(h.project_id, r.pipeline_id, r.job_id)}
              className={`test-mark test-mark-${r.status === 'error' ? 'failed' : r.status}`}
              title={`#${r.pipeline_id} on ${r.ref} (${r.sha.slice(0, 8)}): ${r.status.replace('_', ' ')}, ${r.at}`}
            >
              <span className="visually-hidden">
                #{r.pipeline_id} {r.status}
              </span>
            </AppLink>
          </li>
        ))}
      </ol>
    </div>
  );
}
