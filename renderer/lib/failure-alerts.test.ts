import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../server/contract.ts';
import { eventPath, FailureAlerts, type BrowserNotifier } from './failure-alerts.ts';

const event = (id: string, over: Partial<PipelineEvent> = {}): PipelineEvent => ({
  event: 'pipeline-failed',
  id,
  title: `api: pipeline #${id} failed on main`,
  body: 'Fix — Failed: test (yours)',
  coalesced: false,
  notify: true,
  pipelines: [
    {
      project_id: 3,
      project_name: 'api',
      project_path: 'acme/api',
      pipeline_id: 9,
      web_url: '',
      ref: 'main',
      source: 'push',
      user: null,
      commit_title: 'Fix',
      failed_jobs: [{ id: 90, name: 'test', stage: 'test', failure_reason: null }],
      reasons: ['mine'],
      at: '2026-11-21T12:00:00.000Z',
    },
  ],
  timestamp: '2026-11-21T12:00:00.000Z',
  ...over,
});

function setup(options: { notifier?: BrowserNotifier | null; optedIn?: boolean } = {}) {
  const shown: string[] = [];
  const visited: string[] = [];
  const timers: (() => void)[] = [];
  let clicks: (() => void)[] = [];
  const notifier: BrowserNotifier = {
    permission: () => 'granted',
    show: (title, _o, onClick) => {
      shown.push(title);
      clicks.push(onClick);
    },
  };
  const alerts = new FailureAlerts({
    notifier: options.notifier === undefined ? notifier : options.notifier,
    optedIn: () => options.optedIn ?? true,
    navigate: (p) => void visited.push(p),
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => undefined,
  });
  return { alerts, shown, visited, timers, clicks: () => clicks, reset: () => (clicks = []) };
}

describe('failure alerts in the dashboard', () => {
  it('shows a toast and, when opted in, a browser notification that opens the failing job', () => {
    const t = setup();
    t.alerts.receive(event('a'));
    expect(t.alerts.getState().toasts.map((x) => x.path)).toEqual(['/pipelines/3/9?job=90']);
    expect(t.shown).toEqual(['api: pipeline #a failed on main']);
    t.clicks()[0]!();
    expect(t.visited).toEqual(['/pipelines/3/9?job=90']);
    expect(t.alerts.getState().toasts).toEqual([]);
  });

  it('shows only a toast without opt-in, inside the app, or in quiet hours', () => {
    for (const t of [setup({ optedIn: false }), setup({ notifier: null })]) {
      t.alerts.receive(event('b'));
      expect(t.alerts.getState().toasts).toHaveLength(1);
      expect(t.shown).toEqual([]);
    }
    const quiet = setup();
    quiet.alerts.receive(event('c', { notify: false }));
    expect(quiet.shown).toEqual([]);
    expect(quiet.alerts.getState().toasts).toHaveLength(1);
  });

  it('keeps three toasts at most, drops duplicates and lets them expire', () => {
    const t = setup();
    for (const id of ['1', '2', '3', '4', '4']) t.alerts.receive(event(id));
    expect(t.alerts.getState().toasts.map((x) => x.id)).toEqual(['4', '3', '2']);
    t.timers.at(-1)!();
    expect(t.alerts.getState().toasts.map((x) => x.id)).toEqual(['3', '2']);
    expect(eventPath(event('x', { coalesced: true }))).toBe('/');
  });
});
