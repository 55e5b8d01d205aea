import type { CSSProperties, ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { getJobTrace } from '../../api/job-trace.ts';
import { ErrorBox, Spinner } from '../../components/feedback.tsx';
import { isTyping } from '../../components/shortcuts.tsx';
import { Icon } from '../../components/icons.tsx';
import { SearchField } from '../../components/search-field.tsx';
import type { VirtualListHandle } from '../../components/virtual-list.tsx';
import { VirtualList } from '../../components/virtual-list.tsx';
import type { LogLine, ParsedLog, Segment } from '../../lib/ansi.ts';
import { LogParser, errorRows, searchLog, visibleLines } from '../../lib/ansi.ts';
import { formatBytes, formatDuration, isActive } from '../../lib/format.ts';

const LINE = 20;
/** Characters parsed per slice; between slices the browser paints and handles input. */
const SLICE = 256 * 1024;
const POLL_MS = 2_000;
const utf8 = new TextEncoder();

function segmentStyle(seg: Segment): { className?: string; style?: CSSProperties } {
  const s = seg.style;
  if (!s) return {};
  const classes: string[] = [];
  const style: CSSProperties = {};
  if (typeof s.fg === 'number') classes.push(`ansi-fg-${s.fg}`);
  else if (s.fg) style.color = s.fg;
  if (typeof s.bg === 'number') classes.push(`ansi-bg-${s.bg}`);
  else if (s.bg) style.backgroundColor = s.bg;
  if (s.bold) classes.push('ansi-bold');
  if (s.dim) classes.push('ansi-dim');
  if (s.italic) classes.push('ansi-italic');
  if (s.underline) classes.push('ansi-underline');
  return {
    className: classes.join(' ') || undefined,
    style: Object.keys(style).length ? style : undefined,
  };
}

function highlight(text: string, needle: string): ReactNode {
  if (!needle) return text;
  const lower = text.toLowerCase();
  const out: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, from)) {
    if (at > from) out.push(text.slice(from, at));
    out.push(<mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/** Renders one log line's styled segments (exported for tests). */
export function LogLineView({ line, needle = '' }: { line: LogLine; needle?: string }) {
  return (
    <>
      {line.segments.map((seg, i) => {
        const { className, style } = segmentStyle(seg);
        return (
          <span key={i} className={className} style={style}>
            {highlight(seg.text, needle)}
          </span>
        );
      })}
    </>
  );
}

interface LoadState {
  log: ParsedLog | null;
  /** Bumped whenever `log` changed in place (the parser appends). */
  version: number;
  complete: boolean;
  parsing: number | null;
  error: string | null;
  /** UTF-8 size of the text shown. */
  bytes: number;
  /** The whole log's size when the service sent only its tail, else null. */
  totalBytes: number | null;
  /** Raw line indices the service marked as errors (failed jobs), or null. */
  errorLines: readonly number[] | null;
}

/**
 * Fetches a job's trace and keeps following it while the job runs: each poll appends only the new
 * text to an incremental parser. Large logs are parsed in slices so the page never freezes.
 */
function useJobTrace(projectId: number, jobId: number, jobStatus: string) {
  const [state, setState] = useState<LoadState>({
    log: null,
    version: 0,
    complete: false,
    parsing: null,
    error: null,
    bytes: 0,
    totalBytes: null,
    errorLines: null,
  });
  const [attempt, setAttempt] = useState(0);
  // A job whose status changes (retried, finished) is read again; learning the status for the first
  // time (the panel shows a named job's log before its details arrive) is not a change.
  const [restart, setRestart] = useState(0);
  const seenStatus = useRef(jobStatus);
  useEffect(() => {
    if (seenStatus.current === jobStatus) return;
    if (seenStatus.current !== 'unknown') setRestart((r) => r + 1);
    seenStatus.current = jobStatus;
  }, [jobStatus]);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let parser = new LogParser();
    let text = '';
    const yieldToBrowser = () => new Promise<void>((r) => setTimeout(r, 0));

    const feed = async (
      trace: string,
      complete: boolean,
      errorLines: readonly number[] | null,
      totalBytes: number | null,
    ) => {
      // A trace that is not an extension of what we have (GitLab truncation, a retry) is reparsed.
      const appended =
        trace.length >= text.length &&
        trace.startsWith(text.slice(-256), Math.max(0, text.length - 256));
      let delta = trace.slice(text.length);
      if (!appended) {
        parser = new LogParser();
        delta = trace;
      }
      text = trace;
      const big = delta.length > SLICE;
      for (let i = 0; i < delta.length; i += SLICE) {
        parser.push(delta.slice(i, i + SLICE));
        if (big) {
          setState((s) => ({ ...s, parsing: Math.round(((i + SLICE) / delta.length) * 100) }));
          await yieldToBrowser();
          if (cancelled) return;
        }
      }
      if (complete) parser.end();
      const log = parser.result();
      setState((s) => ({
        log,
        version: s.version + 1,
        complete,
        parsing: null,
        error: null,
        bytes: utf8.encode(trace).byteLength,
        totalBytes,
        errorLines,
      }));
    };

    const poll = async () => {
      try {
        // Shared with the panel's prefetch; `cancelled` (not an abort) drops a late answer.
        const res = await getJobTrace(projectId, jobId);
        if (cancelled) return;
        await feed(
          res.trace,
          res.complete,
          res.error_lines ?? null,
          res.truncated ? (res.bytes ?? null) : null,
        );
        if (!cancelled && !res.complete) timer = setTimeout(poll, POLL_MS);
      } catch (err) {
        if (cancelled) return;
        setState((s) => ({ ...s, parsing: null, error: errorMessage(err) }));
      }
    };
    void poll();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [projectId, jobId, attempt, restart]);
  return { ...state, retry: () => setAttempt((a) => a + 1) };
}

/** The job log viewer: ANSI colours, collapsible sections, search, follow, virtualised lines. */
export default function JobLog({
  projectId,
  jobId,
  jobStatus,
  jobUrl,
}: {
  projectId: number;
  jobId: number;
  jobStatus: string;
  /** The job's page in GitLab, when known: its `/raw` is the whole log. */
  jobUrl?: string;
}) {
  const trace = useJobTrace(projectId, jobId, jobStatus);
  const { log, version } = trace;
  // The user's fold choices; sections without one fold as GitLab asks ([collapsed=true]).
  const [overrides, setOverrides] = useState<ReadonlyMap<number, boolean>>(new Map());
  const setFold = (sections: number[], value: boolean) =>
    setOverrides((prev) => {
      const next = new Map(prev);
      for (const s of sections) next.set(s, value);
      return next;
    });
  const [query, setQuery] = useState('');
  const [hit, setHit] = useState(-1);
  const [follow, setFollow] = useState(true);
  /** Index into `errors` of the error line shown, -1 before the first jump. */
  const [errorAt, setErrorAt] = useState(-1);
  const listRef = useRef<VirtualListHandle>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const folded = useMemo(() => {
    const set = new Set<number>();
    log?.sections.forEach((section, i) => {
      if (overrides.get(i) ?? section.collapsed) set.add(i);
    });
    return set;
  }, [log, version, overrides]);
  const visible = useMemo(() => (log ? visibleLines(log, folded) : []), [log, folded, version]);
  const needle = query.trim().toLowerCase();
  const hits = useMemo(() => (log && needle ? searchLog(log, needle) : []), [log, needle, version]);
  const hitSet = useMemo(() => new Set(hits), [hits]);
  const errors = useMemo(
    () => (log && trace.errorLines ? errorRows(log, trace.errorLines) : []),
    [log, trace.errorLines, version],
  );
  const errorSet = useMemo(() => new Set(errors), [errors]);

  /** Scrolls to log line `line` (unfolding what hides it), a few lines of context above it. */
  const reveal = useCallback(
    (line: number) => {
      if (!log) return;
      setFollow(false);
      const hiding = log.lines[line]!.sections.filter((s) => folded.has(s));
      let rows = visible;
      if (hiding.length) {
        setFold(hiding, false);
        const next = new Set(folded);
        for (const s of hiding) next.delete(s);
        rows = visibleLines(log, next);
      }
      const row = rows.indexOf(line);
      requestAnimationFrame(() => listRef.current?.scrollToIndex(Math.max(0, row - 3), 'start'));
    },
    [log, folded, visible],
  );

  const goToError = useCallback(
    (index: number) => {
      if (errors.length === 0) return;
      const at = ((index % errors.length) + errors.length) % errors.length;
      setErrorAt(at);
      reveal(errors[at]!);
    },
    [errors, reveal],
  );

  const toEnd = useCallback(() => {
    listRef.current?.scrollToEnd();
    if (!trace.complete) setFollow(true);
  }, [trace.complete]);

  // A failed job's log opens at its first error, once; the reader moves on from there.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !trace.complete || errors.length === 0) return;
    opened.current = true;
    goToError(0);
  }, [trace.complete, errors, goToError]);

  const goToHit = useCallback(
    (index: number) => {
      if (!log || hits.length === 0) return;
      const h = ((index % hits.length) + hits.length) % hits.length;
      setHit(h);
      reveal(hits[h]!);
    },
    [log, hits, reveal],
  );

  const navRef = useRef((_step: number) => {});
  navRef.current = (step) => goToHit(step < 0 ? Math.max(0, hit) - 1 : hit + 1);
  const keysRef = useRef({ error: (_step: number) => {}, end: () => {}, home: () => {} });
  keysRef.current = {
    error: (step) => goToError(step < 0 ? Math.max(0, errorAt) - 1 : errorAt + 1),
    end: toEnd,
    home: () => {
      setFollow(false);
      listRef.current?.scrollToIndex(0, 'start');
    },
  };

  useEffect(() => {
    if (follow && !trace.complete) listRef.current?.scrollToEnd();
  }, [visible, follow, trace.complete]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === '/') {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.key === 'n' || e.key === 'N') {
        navRef.current(e.key === 'N' ? -1 : 1);
      } else if (e.key === 'e' || e.key === 'E') {
        keysRef.current.error(e.key === 'E' ? -1 : 1);
      } else if (e.key === 'End' || e.key === 'Home') {
        // The log, not the page behind the panel (or the panel itself), is what End and Home move.
        e.preventDefault();
        if (e.key === 'End') keysRef.current.end();
        else keysRef.current.home();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const download = () => {
    if (!log) return;
    const blob = new Blob([log.lines.map((l) => l.text).join('\n')], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `job-${jobId}.log`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };

  if (trace.error && !log) {
    return <ErrorBox title="Cannot load the job log" message={trace.error} onRetry={trace.retry} />;
  }
  const following = !trace.complete && isActive(jobStatus);
  return (
    <div className="log-viewer">
      <div className="log-toolbar">
        <SearchField
          className="log-search"
          ref={searchRef}
          placeholder="Search log  ( / )"
          aria-label="Search the log"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setHit(-1);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              goToHit(e.shiftKey ? Math.max(0, hit) - 1 : hit + 1);
            } else if (e.key === 'Escape') {
              setQuery('');
              (e.target as HTMLInputElement).blur();
            }
          }}
        />
        {needle && (
          <span className="muted small" aria-live="polite" data-testid="log-hits">
            {hits.length === 0
              ? 'no matches'
              : hit >= 0
                ? `${hit + 1} of ${hits.length}`
                : `${hits.length} match${hits.length === 1 ? '' : 'es'}`}
          </span>
        )}
        <button
          type="button"
          className="icon-button"
          onClick={() => goToHit(Math.max(0, hit) - 1)}
          disabled={!hits.length}
          aria-label="Previous match"
        >
          <Icon.arrowUp size={14} />
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={() => goToHit(hit + 1)}
          disabled={!hits.length}
          aria-label="Next match"
        >
          <Icon.arrowDown size={14} />
        </button>
        <span className="toolbar-spacer" />
        {errors.length > 0 && (
          <div className="log-errors" role="group" aria-label="Errors in this log">
            <button
              type="button"
              className="btn btn-small"
              onClick={() => goToError(0)}
              title="First error (the line the error rules mark first)"
            >
              First error
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => goToError(errorAt + 1)}
              title="Next error ( e ; E for the previous one)"
            >
              Next error
            </button>
            <span className="muted small" data-testid="log-error-position" aria-live="polite">
              {errorAt >= 0 ? `${errorAt + 1} of ${errors.length}` : `${errors.length}`}
            </span>
          </div>
        )}
        {log && log.sections.length > 0 && (
          <>
            {([false, true] as const).map((folded) => (
              <button
                key={String(folded)}
                type="button"
                className="btn btn-small"
                onClick={() =>
                  setFold(
                    log.sections.map((_, i) => i),
                    folded,
                  )
                }
              >
                {folded ? 'Collapse all' : 'Expand all'}
              </button>
            ))}
          </>
        )}
        {following && (
          <button
            type="button"
            className="btn btn-small"
            aria-pressed={follow}
            onClick={() => setFollow((f) => !f)}
          >
            <span className="pulse" aria-hidden="true" /> {follow ? 'Following' : 'Follow'}
          </button>
        )}
        <button
          type="button"
          className="btn btn-small"
          onClick={toEnd}
          disabled={!log}
          title="Last line of the log (End; Home for the first)"
        >
          End
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={download}
          disabled={!log}
          title="Download the plain log"
          aria-label="Download the plain log"
        >
          <Icon.download size={14} />
        </button>
      </div>
      {trace.totalBytes !== null && (
        <div className="log-status log-truncated muted small" role="note">
          <span>
            Showing the last {formatBytes(trace.bytes)} of a {formatBytes(trace.totalBytes)} log.
          </span>
          {jobUrl ? (
            // GitLab's own "View complete raw" link: the job page's /raw serves the whole plain log.
            <a href={`${jobUrl.replace(/\/+$/, '')}/raw`} target="_blank" rel="noreferrer noopener">
              Open the full log in GitLab <Icon.external size={12} />
            </a>
          ) : (
            <span>The full log is in GitLab.</span>
          )}
        </div>
      )}
      {trace.parsing !== null && (
        <div className="log-status muted small">
          <Spinner label="Parsing log" /> Parsing log… {Math.min(100, trace.parsing)}%
        </div>
      )}
      {!log ? (
        <div className="log-body log-loading">
          <Spinner label="Loading log" /> Loading log…
        </div>
      ) : log.lines.length === 0 ? (
        <div className="log-body log-loading muted">
          {trace.complete ? 'This job wrote no output.' : 'Waiting for output…'}
        </div>
      ) : (
        <VirtualList
          handle={listRef}
          className="log-body"
          role="log"
          ariaLabel="Job log"
          count={visible.length}
          itemHeight={LINE}
          overscan={LINE * 30}
          onScroll={(atEnd) => {
            if (!trace.complete) setFollow(atEnd);
          }}
          renderItem={(row, style) => {
            const index = visible[row]!;
            const line = log.lines[index]!;
            const header = line.headerOf !== undefined ? log.sections[line.headerOf]! : null;
            const isFolded = line.headerOf !== undefined && folded.has(line.headerOf);
            const isHit = hitSet.has(index);
            const current = isHit && hits[hit] === index;
            const isError = errorSet.has(index);
            const currentError = isError && errors[errorAt] === index;
            return (
              <div
                key={index}
                style={{ ...style, paddingLeft: 8 + line.sections.length * 14 }}
                className={`log-line${header ? ' log-section-header' : ''}${current ? ' log-current-hit' : ''}${isError ? ' log-error-line' : ''}${currentError ? ' log-current-error' : ''}`}
                data-line={index + 1}
                data-error={isError || undefined}
              >
                <span className="log-number" aria-hidden="true">
                  {index + 1}
                </span>
                {header ? (
                  <button
                    type="button"
                    className="log-fold"
                    aria-expanded={!isFolded}
                    onClick={() => setFold([line.headerOf!], !isFolded)}
                  >
                    <Icon.chevron size={12} className="chevron" />
                    <span className="log-text">
                      <LogLineView line={line} needle={isHit ? needle : ''} />
                    </span>
                    {header.durationSeconds !== null && (
                      <span className="log-duration">{formatDuration(header.durationSeconds)}</span>
                    )}
                  </button>
                ) : (
                  <span className="log-text">
                    <LogLineView line={line} needle={isHit ? needle : ''} />
                  </span>
                )}
              </div>
            );
          }}
        />
      )}
      <div className="log-footer muted small">
        {log ? `${log.lines.length.toLocaleString()} lines · ${formatBytes(trace.bytes)}` : ''}
        {trace.complete ? '' : following ? ' · job running, refreshing every 2 s' : ''}
        {trace.error && log ? ` · ${trace.error}` : ''}
      </div>
    </div>
  );
}
