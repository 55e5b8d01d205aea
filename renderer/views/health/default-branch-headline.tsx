import type { DefaultBranchesResponse } from '../../../server/contract.ts';
import { getDefaultBranches } from '../../api/health.ts';
import { useAsync } from '../../lib/hooks.ts';
import { navigate } from '../../lib/router.ts';
import './health.css';

/** How often the headline re-reads default-branch health while the summary keeps changing. */
const REFRESH_MS = 30_000;

/** The overview's headline: how many default branches are red, linking to group health. */
export function DefaultBranchHeadline({ lastUpdate }: { lastUpdate: number | null }) {
  // Re-read at most every 30 s of summary updates: the service recomputes only on change anyway.
  const tick = lastUpdate === null ? 0 : Math.floor(lastUpdate / REFRESH_MS);
  const [state] = useAsync((signal) => getDefaultBranches(signal), [tick]);
  const data: DefaultBranchesResponse | undefined = state.data;
  if (!data || data.projects.length === 0) return null;
  const red = data.projects.filter((p) => p.state === 'broken');
  const open = (e: React.MouseEvent) => {
    e.preventDefault();
    navigate('/health');
  };
  return (
    <a
      href="/health"
      onClick={open}
      className={`branch-headline ${red.length > 0 ? 'headline-red' : 'headline-green'}`}
      data-testid="red-default-branches"
      data-count={red.length}
    >
      <span className={`branch-dot branch-dot-${red.length > 0 ? 'broken' : 'passing'}`} />
      {red.length === 0 ? (
        <span>All {data.passing} default branches are green</span>
      ) : (
        <span>
          <strong>
            {red.length} default branch{red.length === 1 ? ' is' : 'es are'} red
          </strong>
          : {red.map((p) => p.project_name).join(', ')}
        </span>
      )}
    </a>
  );
}
