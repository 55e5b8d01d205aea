import { useState } from 'react';
import { getHistory } from '../../api/ai.ts';
import { EmptyState, ErrorBox, SkeletonCard } from '../../components/feedback.tsx';
import { Icon } from '../../components/icons.tsx';
import { timeAgo } from '../../lib/format.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { navigate, pipelinePath } from '../../lib/router.ts';

const PAGE_SIZE = 20;
let rememberedPage = 1;

function excerpt(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** AI history: past analyses, newest first, a page at a time; a row opens its analysis. */
export default function AnalysesView() {
  const now = useNow();
  const [page, setPage] = useState(rememberedPage);
  rememberedPage = page;
  const [state, reload] = useAsync((signal) => getHistory(page, PAGE_SIZE, signal), [page]);

  if (state.status === 'error' && !state.data) {
    return (
      <ErrorBox title="Cannot load the analysis history" message={state.error} onRetry={reload} />
    );
  }
  const data = state.data;
  if (!data) {
    return <SkeletonCard rows={6} height={44} />;
  }
  if (data.pagination.totalCount === 0) {
    return (
      <EmptyState
        title="No analyses yet"
        action={
          <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>
            Find a failed pipeline
          </button>
        }
      >
        <p>
          Open a failed job from the overview’s <em>Recent failures</em> and choose{' '}
          <strong>Analyze with AI</strong>. Every analysis and its follow-up questions are kept
          here.
        </p>
      </EmptyState>
    );
  }
  const { currentPage, totalPages, totalCount } = data.pagination;
  return (
    <div className="history-view">
      <div className="toolbar">
        <h1 className="view-title">AI history</h1>
        <span className="muted small">
          {totalCount} {totalCount === 1 ? 'analysis' : 'analyses'}
        </span>
      </div>
      <div className="card history-card">
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Job</th>
              <th scope="col">Stage</th>
              <th scope="col">Analysis</th>
              <th scope="col" className="num">
                Follow-ups
              </th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {data.analyses.map((a) => {
              const href = pipelinePath(a.projectId, a.pipelineId, a.jobId, 'ai');
              return (
                <tr
                  key={`${a.projectId}/${a.jobId}`}
                  onClick={() => navigate(href)}
                  className="clickable"
                >
                  <td>
                    <a
                      href={href}
                      onClick={(e) => {
                        e.preventDefault();
                        e.stopPropagation();
                        navigate(href);
                      }}
                    >
                      {a.projectName}
                    </a>
                    <div className="muted small">pipeline #{a.pipelineId}</div>
                  </td>
                  <td>
                    <strong>{a.jobName}</strong>
                    <div className="muted small">job #{a.jobId}</div>
                  </td>
                  <td>
                    <span className="tag">{a.stage}</span>
                  </td>
                  <td className="history-excerpt">{excerpt(a.analysis)}</td>
                  <td className="num">{a.conversationCount}</td>
                  <td title={a.timestamp}>{timeAgo(a.timestamp, now)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <nav className="pagination" aria-label="History pages">
        <button
          type="button"
          className="btn btn-small"
          disabled={currentPage <= 1}
          onClick={() => setPage(currentPage - 1)}
        >
          <Icon.chevron size={12} style={{ transform: 'rotate(180deg)' }} /> Newer
        </button>
        <span className="muted small">
          Page {currentPage} of {Math.max(1, totalPages)}
        </span>
        <button
          type="button"
          className="btn btn-small"
          disabled={currentPage >= totalPages}
          onClick={() => setPage(currentPage + 1)}
        >
          Older <Icon.chevron size={12} />
        </button>
      </nav>
    </div>
  );
}
