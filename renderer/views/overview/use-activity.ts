import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { SummaryResponse } from '../../../server/contract.ts';
import { ActivityLoader, type ActivityState } from '../../api/activity.ts';
import { getActivity } from '../../api/pipelines.ts';

/**
 * The window's activity for the overview: loaded on mount, reloaded (throttled, only while the page
 * is visible) whenever the live summary changes, i.e. when a `pipeline-update` arrives.
 */
export function useActivity(summary: SummaryResponse | null): [ActivityState, () => void] {
  const [loader] = useState(() => new ActivityLoader({ load: getActivity }));
  useEffect(() => {
    loader.start();
    const onVisibility = () => loader.visibilityChanged();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      loader.stop();
    };
  }, [loader]);
  const seen = useRef(summary);
  useEffect(() => {
    if (seen.current === summary) return;
    const first = seen.current === null;
    seen.current = summary;
    // The mount's own load already covers the first snapshot.
    if (!first) loader.invalidate();
  }, [summary, loader]);
  const state = useSyncExternalStore(loader.subscribe, loader.getState, loader.getState);
  return [state, () => loader.reload()];
}
