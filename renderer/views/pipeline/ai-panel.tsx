import { useEffect, useRef, useState } from 'react';
import type { CachedAnalysis, ConversationEntry, JobDetails } from '../../../server/contract.ts';
import type { AiJobRef } from '../../api/ai.ts';
import { analyse, deleteAnalysis, followUp, getCachedAnalysis } from '../../api/ai.ts';
import { errorMessage } from '../../api/client.ts';
import { ErrorBox, Spinner } from '../../components/feedback.tsx';
import { Icon } from '../../components/icons.tsx';
import { timeAgo } from '../../lib/format.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { Markdown } from '../../lib/markdown.tsx';

interface Analysis {
  analysis: string;
  cached: boolean;
  timestamp: string;
  conversation: ConversationEntry[];
}

/**
 * AI analysis of a failed job: the cached analysis if there is one (marked "cached"), otherwise an
 * "Analyze" button; then re-analyse, delete from the cache, and a follow-up chat with its history.
 */
export default function AiPanel({
  projectId,
  pipelineId,
  job,
}: {
  projectId: number;
  pipelineId: number;
  job: JobDetails;
}) {
  const ref: AiJobRef = { projectId, pipelineId, job };
  const now = useNow();
  const [cache, reloadCache] = useAsync(
    (signal) => getCachedAnalysis(projectId, job.id, signal),
    [projectId, job.id],
  );
  const [current, setCurrent] = useState<Analysis | null>(null);
  const [busy, setBusy] = useState<null | 'analysing' | 'asking' | 'deleting'>(null);
  const [error, setError] = useState<string | null>(null);
  const [question, setQuestion] = useState('');
  const [pendingQuestion, setPendingQuestion] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const chatEnd = useRef<HTMLDivElement>(null);

  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (cache.status === 'ok') {
      const c: CachedAnalysis | null = cache.data;
      setCurrent(
        c
          ? {
              analysis: c.analysis,
              cached: true,
              timestamp: c.timestamp,
              conversation: c.conversation,
            }
          : null,
      );
    }
  }, [cache]);
  useEffect(() => {
    chatEnd.current?.scrollIntoView?.({ block: 'nearest' });
  }, [current?.conversation.length, pendingQuestion]);

  const run = async <T,>(
    kind: 'analysing' | 'asking' | 'deleting',
    fn: (signal: AbortSignal) => Promise<T>,
  ) => {
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setBusy(kind);
    setError(null);
    try {
      return await fn(c.signal);
    } catch (err) {
      if (!c.signal.aborted) setError(errorMessage(err));
      return undefined;
    } finally {
      if (controller.current === c) setBusy(null);
    }
  };

  const doAnalyse = async (fresh: boolean) => {
    await run('analysing', async (signal) => {
      // Re-analyse = forget the cached analysis, then ask again (the documented API has no "force").
      if (fresh) await deleteAnalysis(projectId, job.id);
      const res = await analyse(ref, signal);
      setCurrent({
        analysis: res.analysis,
        cached: res.cached,
        timestamp: res.timestamp,
        conversation: fresh ? [] : (current?.conversation ?? []),
      });
    });
  };

  const ask = async () => {
    const q = question.trim();
    if (!q || !current) return;
    setPendingQuestion(q);
    setQuestion('');
    const res = await run('asking', (signal) => followUp(ref, q, current.analysis, signal));
    setPendingQuestion(null);
    if (res)
      setCurrent((c) =>
        c
          ? {
              ...c,
              conversation: [
                ...c.conversation,
                { question: q, answer: res.answer, timestamp: res.timestamp },
              ],
            }
          : c,
      );
    else setQuestion(q);
  };

  const remove = async () => {
    const res = await run('deleting', () => deleteAnalysis(projectId, job.id));
    if (res) {
      setCurrent(null);
      reloadCache();
    }
  };

  if (cache.status === 'loading' && !current) {
    return (
      <div className="ai-panel ai-loading">
        <Spinner /> Checking for a cached analysis…
      </div>
    );
  }
  if (cache.status === 'error' && !current) {
    return (
      <ErrorBox
        title="Cannot reach the AI analysis service"
        message={cache.error}
        onRetry={reloadCache}
      />
    );
  }

  return (
    <div className="ai-panel" aria-busy={busy !== null}>
      {error && <ErrorBox title="The AI request failed" message={error} />}
      {!current ? (
        <div className="ai-empty">
          <div className="ai-empty-icon" aria-hidden="true">
            <Icon.sparkle size={22} />
          </div>
          <div>
            <strong>Find out why “{job.name}” failed</strong>
            <p className="muted">
              The service reads the job’s log, keeps the failing section and the error lines, and
              asks the configured AI provider for the root cause and a fix. The answer is cached for
              everyone on this machine.
            </p>
          </div>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void doAnalyse(false)}
            disabled={busy !== null}
          >
            {busy === 'analysing' ? <Spinner label="Analysing" /> : <Icon.sparkle size={14} />}
            {busy === 'analysing' ? 'Analysing…' : 'Analyze with AI'}
          </button>
        </div>
      ) : (
        <>
          <div className="ai-head">
            <div className="ai-head-info">
              <Icon.sparkle size={16} />
              <strong>Analysis</strong>
              {current.cached && (
                <span className="tag tag-cached" title="Served from the analysis cache">
                  cached
                </span>
              )}
              <span className="muted small" title={current.timestamp}>
                {timeAgo(current.timestamp, now)}
              </span>
            </div>
            <div className="ai-actions">
              <button
                type="button"
                className="btn btn-small"
                onClick={() => void doAnalyse(true)}
                disabled={busy !== null}
              >
                {busy === 'analysing' ? <Spinner label="Analysing" /> : <Icon.refresh size={14} />}{' '}
                Re-analyse
              </button>
              <button
                type="button"
                className="btn btn-small btn-danger"
                onClick={() => void remove()}
                disabled={busy !== null}
              >
                <Icon.trash size={14} /> Delete
              </button>
            </div>
          </div>
          <article className="ai-analysis" aria-label="AI analysis">
            {busy === 'analysing' ? (
              <div className="ai-loading">
                <Spinner /> Analysing the log…
              </div>
            ) : (
              <Markdown source={current.analysis} />
            )}
          </article>
          <section className="ai-chat" aria-label="Conversation">
            {current.conversation.map((entry, i) => (
              <div key={i} className="chat-pair">
                <div className="chat-question">
                  <span className="chat-who">You</span>
                  <p>{entry.question}</p>
                </div>
                <div className="chat-answer">
                  <span className="chat-who">
                    <Icon.sparkle size={12} /> AI ·{' '}
                    <span className="muted">{timeAgo(entry.timestamp, now)}</span>
                  </span>
                  <Markdown source={entry.answer} />
                </div>
              </div>
            ))}
            {pendingQuestion && (
              <div className="chat-pair">
                <div className="chat-question">
                  <span className="chat-who">You</span>
                  <p>{pendingQuestion}</p>
                </div>
                <div className="chat-answer">
                  <Spinner label="Thinking" /> Thinking…
                </div>
              </div>
            )}
            <div ref={chatEnd} />
            <form
              className="chat-form"
              onSubmit={(e) => {
                e.preventDefault();
                void ask();
              }}
            >
              <input
                type="text"
                value={question}
                onChange={(e) => setQuestion(e.target.value)}
                placeholder="Ask a follow-up question, e.g. “How do I reproduce this locally?”"
                aria-label="Follow-up question"
                disabled={busy !== null && busy !== 'asking'}
              />
              <button
                type="submit"
                className="btn btn-primary"
                disabled={!question.trim() || busy !== null}
              >
                Ask
              </button>
            </form>
          </section>
        </>
      )}
    </div>
  );
}
