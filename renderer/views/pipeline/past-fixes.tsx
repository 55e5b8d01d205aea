import type { FixedBefore } from '../../../server/contract.ts';
import { timeAgo } from '../../lib/format.ts';
import '../triage.css';

/**
 * "This error was fixed before by a1b2c3d4 'pin node to 20.11' two weeks ago": the earlier fixes of
 * the same failure signature on this project, as the service found them in the history.
 */
export function PastFixes({ fixes, now }: { fixes: FixedBefore[] | undefined; now: Date }) {
  if (!fixes || fixes.length === 0) return null;
  return (
    <aside className="past-fixes" aria-label="Fixed before" data-testid="past-fixes">
      <strong>This error was fixed before</strong>
      <ul>
        {fixes.map((f) => (
          <li key={f.pipeline_id}>
            by <code>{f.short_sha}</code>
            {f.commit_title && <> ‘{f.commit_title}’</>}
            {f.commit_author && <> by {f.commit_author}</>} {timeAgo(f.fixed_at, now)}
            {f.merge_request && (
              <>
                {' '}
                in{' '}
                <a href={f.merge_request.web_url} target="_blank" rel="noreferrer">
                  !{f.merge_request.iid}
                  {f.merge_request.title ? ` ${f.merge_request.title}` : ''}
                </a>
              </>
            )}{' '}
            <span className="muted small">
              (pipeline #{f.pipeline_id}, after #{f.failed_pipeline_id})
            </span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
