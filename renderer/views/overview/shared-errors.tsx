import type { FailureSignature } from '../../../server/contract.ts';
import { getFailureSignatures } from '../../api/triage.ts';
import { timeAgo } from '../../lib/format.ts';
import { useAsync } from '../../lib/hooks.ts';
import { navigate, pipelinePath } from '../../lib/router.ts';
import '../triage.css';

/** How often the signatures are re-read while the summary keeps changing. */
const REFRESH_MS = 30_000;
/** Shared errors shown at most. */
const SHOWN = 3;

/** The project names of a signature in words: "api, web and billing". */
function projectsInWords(s: FailureSignature): string {
  const names = s.projects.map((p) => p.project_name);
  return names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * "The same error in N projects": failure signatures that span several projects (a registry
 * outage, an expired token, a runner image), each opening its newest failed job.
 */
export function SharedErrors({ lastUpdate, now }: { lastUpdate: number | null; now: Date }) {
  const tick = lastUpdate === null ? 0 : Math.floor(lastUpdate / REFRESH_MS);
  const [state] = useAsync((signal) => getFailureSignatures(undefined, signal), [tick]);
  const shared = state.data?.signatures.filter((s) => s.projects.length > 1).slice(0, SHOWN) ?? [];
  if (shared.length === 0) return null;
  return (
    <section className="card shared-errors" aria-labelledby="shared-errors-title">
      <h2 id="shared-errors-title" className="card-title">
        Errors shared across projects
      </h2>
      <ul className="shared-error-list">
        {shared.map((s) => {
          const newest = s.jobs[0];
          return (
            <li key={s.signature} data-testid="shared-error" data-projects={s.projects.length}>
              <button
                type="button"
                className="shared-error"
                disabled={!newest}
                onClick={() =>
                  newest &&
                  navigate(
                    pipelinePath(newest.project_id, newest.pipeline_id, newest.job_id, 'log'),
                  )
                }
              >
                <strong>The same error in {s.projects.length} projects</strong>
                <code className="shared-error-line">{s.sample_line}</code>
                <span className="muted small">
                  {projectsInWords(s)} · {s.occurrences} failed job{s.occurrences === 1 ? '' : 's'}{' '}
                  · last {timeAgo(s.last_seen, now)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
