import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useFeedState } from './app-context.ts';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { FailureAlerts } from './components/failure-alerts.tsx';
import { AppLink } from './components/app-link.tsx';
import { EmptyState, Spinner } from './components/feedback.tsx';
import { Icon } from './components/icons.tsx';
import { LiveIndicator } from './components/live-indicator.tsx';
import { ShortcutsDialog, useShortcuts } from './components/shortcuts.tsx';
import { useStoredState } from './lib/hooks.ts';
import type { Route } from './lib/router.ts';
import { navigate, parseRoute, previousPath, useRoute } from './lib/router.ts';
import { preloadable } from './lib/preloadable.ts';
import { describeSince } from './lib/since.ts';
import { Overview } from './views/overview/overview.tsx';
import { ProjectsView } from './views/projects/projects-view.tsx';

const pipelinePanel = preloadable(() => import('./views/pipeline/pipeline-panel.tsx'));
const PipelinePanel = pipelinePanel.Component;
const AnalysesView = lazy(() => import('./views/analyses/analyses-view.tsx'));
const SettingsView = lazy(() => import('./views/settings/settings-view.tsx'));
const HealthView = lazy(() => import('./views/health/health-view.tsx'));
const FlakyView = lazy(() => import('./views/health/flaky-view.tsx'));
const TrendsView = lazy(() => import('./views/health/trends-view.tsx'));
const FailuresView = lazy(() => import('./views/health/failures-view.tsx'));
const TestsView = lazy(() => import('./views/tests/tests-view.tsx'));
const MineView = lazy(() => import('./views/mine/mine-view.tsx'));

const THEMES = ['system', 'light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

const NAV: { path: string; label: string; view: Route['view']; key: string }[] = [
  { path: '/mine', label: 'My MRs', view: 'mine', key: 'm' },
  { path: '/', label: 'Overview', view: 'overview', key: 'o' },
  { path: '/projects', label: 'Projects', view: 'projects', key: 'p' },
  { path: '/health', label: 'Health', view: 'health', key: 'b' },
  { path: '/failures', label: 'Failures', view: 'failures', key: 'f' },
  { path: '/tests', label: 'Tests', view: 'tests', key: 't' },
  { path: '/history', label: 'AI history', view: 'analyses', key: 'h' },
  { path: '/settings', label: 'Settings', view: 'settings', key: 's' },
];

function ThemeToggle() {
  const [theme, setTheme] = useStoredState<Theme>('theme', 'system', THEMES);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  const next = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!;
  const Glyph = theme === 'light' ? Icon.sun : theme === 'dark' ? Icon.moon : Icon.monitor;
  return (
    <button
      type="button"
      className="icon-button"
      onClick={() => setTheme(next)}
      title={`Theme: ${theme} (click for ${next})`}
      aria-label={`Theme: ${theme}. Switch to ${next}`}
    >
      <Glyph size={16} />
    </button>
  );
}

function Header({ active }: { active: Route['view'] }) {
  const state = useFeedState();
  const status = state.summary?.status;
  return (
    <header className="app-header">
      <a
        className="brand"
        href="/"
        onClick={(e) => {
          e.preventDefault();
          navigate('/');
        }}
      >
        <img src="/favicon.svg" alt="" width={22} height={22} />
        <span>Pipeline Summary</span>
      </a>
      <nav className="main-nav" aria-label="Views">
        {NAV.map((item) => (
          <AppLink
            key={item.path}
            href={item.path}
            aria-current={active === item.view ? 'page' : undefined}
          >
            {item.label}
          </AppLink>
        ))}
      </nav>
      <div className="header-right">
        {status && (
          <button
            type="button"
            className="scope-chip"
            title="Change group and window in Settings"
            onClick={() => navigate('/settings')}
          >
            <span className="scope-group">{status.group}</span>
            <span className="scope-since">last {describeSince(status.since)}</span>
          </button>
        )}
        <LiveIndicator />
        <ThemeToggle />
      </div>
    </header>
  );
}

function ViewFor({ route }: { route: Route }) {
  switch (route.view) {
    case 'overview':
      return <Overview />;
    case 'mine':
      return <MineView />;
    case 'projects':
      return <ProjectsView />;
    case 'analyses':
      return <AnalysesView />;
    case 'settings':
      return <SettingsView />;
    case 'health':
      return route.tab === 'flaky' ? (
        <FlakyView />
      ) : route.tab === 'trends' ? (
        <TrendsView />
      ) : (
        <HealthView />
      );
    case 'failures':
      return <FailuresView search={route.search} />;
    case 'tests':
      return <TestsView />;
    case 'not-found':
      return (
        <EmptyState
          title="Nothing here"
          action={
            <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>
              Go to the overview
            </button>
          }
        >
          <p>
            <code>{route.path}</code> is not a page of the dashboard.
          </p>
        </EmptyState>
      );
    default:
      return null;
  }
}

/** The URL of a (non-pipeline) view, to return to when the pipeline panel over it closes. */
function pathOf(route: Route): string {
  switch (route.view) {
    case 'mine':
      return '/mine';
    case 'projects':
      return '/projects';
    case 'analyses':
      return '/history';
    case 'settings':
      return '/settings';
    case 'health':
      return route.tab === 'branches' ? '/health' : `/health/${route.tab}`;
    case 'failures':
      return `/failures${route.search}`;
    case 'tests':
      return '/tests';
    default:
      return '/';
  }
}

const Loading = () => (
  <div className="view-loading">
    <Spinner />
  </div>
);

/** The dashboard: header, the current view, and the pipeline panel over it when one is open. */
export function App() {
  const route = useRoute();
  // The view under an open pipeline panel: the last non-pipeline view (overview on a deep link).
  const background = useRef<Route>({ view: 'overview' });
  if (route.view !== 'pipeline') background.current = route;
  const [helpOpen, setHelpOpen] = useState(false);
  useShortcuts({
    go: (key) => {
      const item = NAV.find((n) => n.key === key);
      if (item) navigate(item.path);
    },
    help: () => setHelpOpen((v) => !v),
  });
  const base = route.view === 'pipeline' ? background.current : route;

  // The element that opened the pipeline panel, read before the page under the panel turns inert
  // (which takes focus away): Esc, the close button and Back return focus to it.
  const opener = useRef<HTMLElement | null>(null);
  const wasPanel = useRef(false);
  if (route.view === 'pipeline' && !wasPanel.current) {
    const active = typeof document === 'undefined' ? null : document.activeElement;
    if (active instanceof HTMLElement && active !== document.body) opener.current = active;
  }
  const panelOpen = route.view === 'pipeline';
  useEffect(() => {
    const closed = wasPanel.current && !panelOpen;
    wasPanel.current = panelOpen;
    if (closed && opener.current?.isConnected) opener.current.focus();
  }, [panelOpen]);

  // The panel and its log viewer are split out of the first paint; fetch them once the page is idle
  // so the first open does not wait for two chunks in a row.
  useEffect(() => {
    const preload = () => void pipelinePanel.preload();
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(preload, { timeout: 2_000 });
      return () => cancelIdleCallback(id);
    }
    const t = setTimeout(preload, 500);
    return () => clearTimeout(t);
  }, []);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {/* While the pipeline panel is open, the page under it is inert: focus stays in the dialog. */}
      <div className="app-page" inert={route.view === 'pipeline'}>
        <Header active={base.view} />
        <main id="main" className="app-main" tabIndex={-1}>
          <ErrorBoundary>
            <Suspense fallback={<Loading />}>
              <ViewFor route={base} />
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
      <FailureAlerts />
      {route.view === 'pipeline' && (
        <ErrorBoundary>
          <Suspense fallback={null}>
            <PipelinePanel
              key={`${route.projectId}/${route.pipelineId}`}
              projectId={route.projectId}
              pipelineId={route.pipelineId}
              jobId={route.jobId}
              tab={route.tab}
              onClose={() => {
                // Opened from a view of the app: step back, so Back afterwards does not reopen the
                // panel. Opened from a link: replace it with the view under it.
                if (previousPath() !== null) {
                  history.back();
                  return;
                }
                navigate(pathOf(background.current), { replace: true });
              }}
            />
          </Suspense>
        </ErrorBoundary>
      )}
      {helpOpen && <ShortcutsDialog onClose={() => setHelpOpen(false)} />}
    </div>
  );
}

/** Exported for tests: the route a URL opens. */
export { parseRoute };
