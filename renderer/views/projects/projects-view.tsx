import type { KeyboardEvent } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ProjectSummary } from '../../../server/contract.ts';
import { useFeed, useFeedState } from '../../app-context.ts';
import { Avatar } from '../../components/avatar.tsx';
import { EmptyState, ErrorBox, SkeletonCard } from '../../components/feedback.tsx';
import { GreyStatusWord, Icon, StatusIcon } from '../../components/icons.tsx';
import { RefLabel } from '../../components/ref-label.tsx';
import { SearchField } from '../../components/search-field.tsx';
import { isTyping } from '../../components/shortcuts.tsx';
import type { VirtualListHandle } from '../../components/virtual-list.tsx';
import { VirtualList } from '../../components/virtual-list.tsx';
import {
  formatDuration,
  formatRate,
  rateBand,
  sourceLabel,
  statusLabel,
  timeAgo,
} from '../../lib/format.ts';
import { useNow } from '../../lib/hooks.ts';
import type { ProjectQuery, ProjectSortKey } from '../../lib/projects-filter.ts';
import {
  averageDuration,
  DEFAULT_PROJECT_QUERY,
  filterProjects,
} from '../../lib/projects-filter.ts';
import { navigate, pipelinePath } from '../../lib/router.ts';

const ROW = 52;
const SUB_ROW = 38;
const SUB_PAD = 12;

const COLUMNS: { key: ProjectSortKey; label: string; className: string; numeric?: boolean }[] = [
  { key: 'name', label: 'Project', className: 'col-name' },
  { key: 'total', label: 'Pipelines', className: 'col-num', numeric: true },
  { key: 'success_rate', label: 'Success rate', className: 'col-rate', numeric: true },
  { key: 'duration', label: 'Avg duration', className: 'col-num', numeric: true },
  { key: 'last_activity', label: 'Last pipeline', className: 'col-last', numeric: true },
];

// Session memory of the table's state, so returning from a pipeline keeps filters and expansion.
let remembered: { query: ProjectQuery; expanded: Set<number> } = {
  query: DEFAULT_PROJECT_QUERY,
  expanded: new Set(),
};

/** Forgets the remembered filters and expansion (tests; a fresh window starts clean anyway). */
export function resetProjectsView(): void {
  remembered = { query: DEFAULT_PROJECT_QUERY, expanded: new Set() };
}

function RecentPipelines({ project, now }: { project: ProjectSummary; now: Date }) {
  if (project.recent_pipelines.length === 0) {
    return <div className="sub-empty muted">No pipelines in this window.</div>;
  }
  return (
    <ul className="recent-list" aria-label={`Recent pipelines of ${project.project_name}`}>
      {project.recent_pipelines.map((p) => (
        <li key={p.pipeline_id} style={{ height: SUB_ROW }}>
          <a
            href={pipelinePath(project.project_id, p.pipeline_id)}
            onClick={(e) => {
              e.preventDefault();
              navigate(pipelinePath(project.project_id, p.pipeline_id));
            }}
          >
            <StatusIcon status={p.status} size={16} />
            <span className="recent-id">
              #{p.pipeline_id} <GreyStatusWord status={p.status} />
            </span>
            <RefLabel pipeline={p} className="recent-ref" />
            <span className="muted">{sourceLabel(p.source)}</span>
            <span className="recent-user">
              {p.user && <Avatar name={p.user.name} url={p.user.avatar_url} size={18} />}
              {p.user?.name}
            </span>
            <span className="muted">{formatDuration(p.duration)}</span>
            <span className="muted">{timeAgo(p.created_at, now)}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** What an empty table says: the words typed (when any) and the state filter. Exported for tests. */
export function emptyMessage(query: ProjectQuery): string {
  const text = query.text.trim();
  const among = query.show === 'all' ? '' : `${query.show} `;
  if (!text) return `No ${among}projects right now.`;
  return `No ${among}project matches “${text}”.`;
}

/** The projects table: sortable, filterable, virtualised; a row expands to its recent pipelines. */
export function ProjectsView() {
  const state = useFeedState();
  const feed = useFeed();
  const now = useNow();
  const [query, setQuery] = useState<ProjectQuery>(remembered.query);
  const [expanded, setExpanded] = useState<Set<number>>(remembered.expanded);
  const [focusIndex, setFocusIndex] = useState(0);
  const listRef = useRef<VirtualListHandle>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  remembered = { query, expanded };

  const projects = state.summary?.projects;
  const fresh = useMemo(() => (projects ? filterProjects(projects, query) : []), [projects, query]);

  // Nothing moves under the cursor: while the pointer is over the table, focus is in it or a row is
  // open, rows keep the order they had (with fresh numbers) and live reorders wait behind an
  // "n updates — apply" button. Sorting or filtering is the user's own move and re-orders at once.
  const [hover, setHover] = useState(false);
  const [focusWithin, setFocusWithin] = useState(false);
  const [, setApplied] = useState(0);
  const interacting = hover || focusWithin || expanded.size > 0;
  const pin = useRef<{ ids: number[]; query: ProjectQuery; seen: unknown; updates: number } | null>(
    null,
  );
  const freshIds = fresh.map((p) => p.project_id);
  if (!interacting) pin.current = null;
  else if (!pin.current || pin.current.query !== query)
    pin.current = { ids: freshIds, query, seen: projects, updates: 0 };
  else if (pin.current.seen !== projects) {
    pin.current.seen = projects;
    if (freshIds.join() !== pin.current.ids.join()) pin.current.updates++;
  }
  const pinned = pin.current;
  const pinnedIds = pinned?.ids;
  const rows = useMemo(() => {
    if (!pinnedIds) return fresh;
    const byId = new Map(fresh.map((p) => [p.project_id, p]));
    return pinnedIds.flatMap((id) => byId.get(id) ?? []);
  }, [fresh, pinnedIds]);
  const pendingUpdates =
    pinned && freshIds.join() !== pinned.ids.join() ? Math.max(1, pinned.updates) : 0;
  const applyUpdates = () => {
    if (pin.current) pin.current = { ids: freshIds, query, seen: projects, updates: 0 };
    setApplied((n) => n + 1);
  };
  const itemHeight = useCallback(
    (i: number) => {
      const p = rows[i]!;
      if (!expanded.has(p.project_id)) return ROW;
      return ROW + Math.max(1, p.recent_pipelines.length) * SUB_ROW + SUB_PAD;
    },
    [rows, expanded],
  );

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === '/' && !isTyping(e.target)) {
        e.preventDefault();
        filterRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const toggle = (id: number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const sortBy = (key: ProjectSortKey) =>
    setQuery((q) =>
      q.sort === key
        ? { ...q, direction: q.direction === 'asc' ? 'desc' : 'asc' }
        : { ...q, sort: key, direction: key === 'name' ? 'asc' : 'desc' },
    );

  const focusRow = (i: number) => {
    const index = Math.max(0, Math.min(rows.length - 1, i));
    setFocusIndex(index);
    listRef.current?.scrollToIndex(index);
    const find = () =>
      listRef.current
        ?.element()
        ?.querySelector<HTMLElement>(`[data-row-index="${index}"] .row-main`);
    // Focus at once when the row is on screen, so a key pressed right after lands on it;
    // a row scrolled into view only renders on the next frame.
    const el = find();
    if (el) el.focus();
    else requestAnimationFrame(() => find()?.focus());
  };

  const onRowKey = (e: KeyboardEvent, i: number, p: ProjectSummary) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      focusRow(i + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (i === 0) filterRef.current?.focus();
      else focusRow(i - 1);
    } else if (e.key === 'ArrowRight' && !expanded.has(p.project_id)) toggle(p.project_id);
    else if (e.key === 'ArrowLeft' && expanded.has(p.project_id)) toggle(p.project_id);
  };

  if (!projects) {
    if (state.error)
      return (
        <ErrorBox
          title="Cannot load projects"
          message={state.error}
          onRetry={() => feed.reconnectNow()}
        />
      );
    return <SkeletonCard rows={8} height={36} />;
  }
  if (projects.length === 0) {
    return (
      <EmptyState
        title="No projects with pipelines yet"
        action={
          <button type="button" className="btn btn-primary" onClick={() => navigate('/settings')}>
            Choose a group
          </button>
        }
      >
        <p>
          Projects of the configured group show up here once they have pipelines in the time window.
          Change the group or widen the window in Settings.
        </p>
      </EmptyState>
    );
  }

  return (
    <div className="projects-view">
      <div className="toolbar">
        <SearchField
          ref={filterRef}
          placeholder="Filter projects…  ( / )"
          aria-label="Filter projects by name or path"
          value={query.text}
          onChange={(e) => setQuery((q) => ({ ...q, text: e.target.value }))}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && rows.length) {
              e.preventDefault();
              focusRow(focusIndex);
            } else if (e.key === 'Escape') setQuery((q) => ({ ...q, text: '' }));
          }}
        />
        <div className="segmented" role="group" aria-label="Show">
          {(['all', 'running', 'failing'] as const).map((show) => (
            <button
              key={show}
              type="button"
              aria-pressed={query.show === show}
              onClick={() => setQuery((q) => ({ ...q, show }))}
            >
              {show === 'all' ? 'All' : show === 'running' ? 'Running' : 'Last failed'}
            </button>
          ))}
        </div>
        {pendingUpdates > 0 && (
          <button
            type="button"
            className="btn btn-small updates-chip"
            onClick={applyUpdates}
            data-testid="apply-updates"
          >
            {pendingUpdates} update{pendingUpdates === 1 ? '' : 's'} — apply
          </button>
        )}
        <span className="muted small" aria-live="polite">
          {rows.length === projects.length
            ? `${projects.length} projects`
            : `${rows.length} of ${projects.length} projects`}
        </span>
      </div>
      <div
        className="table card"
        onMouseEnter={() => setHover(true)}
        onMouseLeave={() => setHover(false)}
        onFocus={() => setFocusWithin(true)}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusWithin(false);
        }}
      >
        <div className="table-head" role="group" aria-label="Sort projects">
          <span className="col-expand" />
          {COLUMNS.map((c) => {
            const active = query.sort === c.key;
            const direction = query.direction === 'asc' ? 'ascending' : 'descending';
            return (
              <span key={c.key} className={c.className} data-sort={active ? direction : undefined}>
                <button
                  type="button"
                  onClick={() => sortBy(c.key)}
                  aria-pressed={active}
                  aria-label={active ? `${c.label}, sorted ${direction}` : `Sort by ${c.label}`}
                >
                  {c.label}
                  {active &&
                    (query.direction === 'asc' ? (
                      <Icon.arrowUp size={12} />
                    ) : (
                      <Icon.arrowDown size={12} />
                    ))}
                </button>
              </span>
            );
          })}
        </div>
        {rows.length === 0 ? (
          <div className="table-empty muted">
            {emptyMessage(query)}{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => setQuery(DEFAULT_PROJECT_QUERY)}
            >
              Clear filters
            </button>
          </div>
        ) : (
          <VirtualList
            handle={listRef}
            className="table-body"
            role="list"
            ariaLabel="Projects"
            count={rows.length}
            itemHeight={itemHeight}
            renderItem={(i, style) => {
              const p = rows[i]!;
              const open = expanded.has(p.project_id);
              const finished = p.successful + p.failed;
              const band = rateBand(p.success_rate, finished);
              const last = p.recent_pipelines[0];
              return (
                <div
                  key={p.project_id}
                  style={style}
                  className={`project-row${open ? ' open' : ''}`}
                  role="listitem"
                  data-row-index={i}
                  data-project-id={p.project_id}
                >
                  <button
                    type="button"
                    className="row-main"
                    aria-expanded={open}
                    tabIndex={i === focusIndex ? 0 : -1}
                    onClick={() => {
                      setFocusIndex(i);
                      toggle(p.project_id);
                    }}
                    onKeyDown={(e) => onRowKey(e, i, p)}
                    style={{ height: ROW }}
                  >
                    <span className="col-expand">
                      <Icon.chevron size={14} className="chevron" />
                    </span>
                    <span className="col-name">
                      <span className="project-name">{p.project_name}</span>
                      {p.project_path && (
                        <span className="project-path muted">{p.project_path}</span>
                      )}
                    </span>
                    <span className="col-num">
                      <span className="num">{p.total_pipelines}</span>
                      {p.running > 0 && (
                        <span className="running-chip" title={`${p.running} running`}>
                          <span className="pulse" aria-hidden="true" />
                          {p.running}
                        </span>
                      )}
                    </span>
                    <span className="col-rate">
                      <span className={`rate-bar rate-${band}`} aria-hidden="true">
                        <span style={{ width: `${finished ? p.success_rate : 0}%` }} />
                      </span>
                      <span className="num">{finished ? formatRate(p.success_rate) : '—'}</span>
                    </span>
                    <span className="col-num num">{formatDuration(averageDuration(p))}</span>
                    <span className="col-last">
                      {last ? (
                        <>
                          <StatusIcon status={last.status} size={16} />
                          <span className="last-status">{statusLabel(last.status)}</span>
                          <span className="muted">{timeAgo(last.created_at, now)}</span>
                        </>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </span>
                  </button>
                  {open && <RecentPipelines project={p} now={now} />}
                </div>
              );
            }}
          />
        )}
      </div>
    </div>
  );
}
