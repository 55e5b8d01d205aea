import { useEffect, useRef, useState } from 'react';
import type {
  CachedAnalysis,
  ConversationEntry,
  JobDetails,
  PipelineAnalysisResponse,
} from '../../../server/contract.ts';
import type { AiJobRef } from '../../api/ai.ts';
import {
  analyse,
  analysePipeline,
  deleteAnalysis,
  followUp,
  getCachedAnalysis,
} from '../../api/ai.ts';
import { errorMessage } from '../../api/client.ts';
import { ErrorBox, Spinner } from '../../components/feedback.tsx';
import { Icon } from '../../components/icons.tsx';
import { timeAgo } from '../../lib/format.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { Markdown } from '../../lib/markdown.tsx';
import { PastFixes } from './past-fixes.tsx';

/** Text as it streams in, or a spinner until the first piece arrives. */
// The built-in analyser signs every answer it writes, and a fallback answer starts with a notice
// saying so (server/ai/offline/report.ts, server/ai/providers/fallback-provider.ts).
const BUILT_IN_SIGNATURE = /built-in offline analys/i;

/** Under an answer of the built-in analyser: what it is, and that the system prompt does not apply. */
function BuiltInNote({ text }: { text: string }) {
  if (!BUILT_IN_SIGNATURE.test(text)) return null;
  return (
    <p className="muted small ai-builtin-note" role="note">
      Answered by the built-in analyser: fixed pattern rules over the log, no AI model. The system
      prompt applies only to configured AI providers; choose one in the AI settings for a deeper
      explanation.
    </p>
  );
}

function StreamingText({ text, waiting }: { text: string; waiting: string }) {
  if (!text) {
    return (
      <div className="ai-loading">
        <Spinner /> {waiting}
      </div>
    );
  }
  return (
    <div className="streaming" aria-live="polite">
      <Markdown source={text} />
      <span className="caret" aria-hidden="true" />
    </div>
  );
}

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
  // Text streamed so far (analysis or answer), replaced by the final result when it arrives.
  const [streamed, setStreamed] = useState('');
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
  // Scroll to new chat entries, but not when a cached conversation first opens.
  const seenEntries = useRef<number | null>(null);
  const entries = (current?.conversation.length ?? 0) + (pendingQuestion ? 1 : 0);
  useEffect(() => {
    if (seenEntries.current !== null && entries > seenEntries.current)
      chatEnd.current?.scrollIntoView?.({ block: 'nearest' });
    if (current) seenEntries.current = entries;
  }, [entries, current]);

  const run = async <T,>(
    kind: 'analysing' | 'asking' | 'deleting',
    fn: (signal: AbortSignal) => Promise<T>,
  ) => {
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setBusy(kind);
    setError(null);
    setStreamed('');
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
      const res = await analyse(ref, { force: fresh, onDelta: setStreamed, signal });
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
    const res = await run('asking', (signal) =>
      followUp(ref, q, current.analysis, { onDelta: setStreamed, signal }),
    );
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
      <PastFixes fixes={job.fixed_before} now={now} />
      {error && <ErrorBox title="The AI request failed" message={error} />}
      {!current && busy === 'analysing' ? (
        <article className="ai-analysis" aria-label="AI analysis">
          <StreamingText text={streamed} waiting="Reading the log and analysing the failure…" />
        </article>
      ) : !current ? (
        <div className="ai-empty">
          <div className="ai-empty-icon" aria-hidden="true">
            <Icon.sparkle size={22} />
          </div>
          <div>
            <strong>Find out why “{job.name}” failed</strong>
            <p className="muted">
              The service reads the job’s log, keeps the failing section and the error lines, and
              asks the configured AI provider (or, when none is configured, the built-in analyser)
              for the root cause and a fix. The answer is cached for everyone on this machine.
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
              <StreamingText text={streamed} waiting="Analysing the log…" />
            ) : (
              <>
                <Markdown source={current.analysis} />
                <BuiltInNote text={current.analysis} />
              </>
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
                  <StreamingText text={streamed} waiting="Thinking…" />
                </div>
              </div>
            )}
            <div ref={chatEnd} />
          </section>
          {/* Outside the conversation and sticky: in view after the seventh question too. */}
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
        </>
      )}
    </div>
  );
}

/**
 * Whole-pipeline analysis: every failed job of the pipeline in one answer, grouped into problems
 * (a shared root cause is explained once). Offered on failed pipelines with more than one failure.
 */
export function PipelineAnalysisCard({
  projectId,
  pipelineId,
  failedJobs,
  onOpenJob,
}: {
  projectId: number;
  pipelineId: number;
  failedJobs: number;
  onOpenJob: (jobId: number) => void;
}) {
  const now = useNow();
  const [result, setResult] = useState<PipelineAnalysisResponse | null>(null);
  const [streamed, setStreamed] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const run = async (force: boolean) => {
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setBusy(true);
    setError(null);
    setStreamed('');
    try {
      setResult(
        await analysePipeline(projectId, pipelineId, {
          force,
          onDelta: setStreamed,
          signal: c.signal,
        }),
      );
    } catch (err) {
      if (!c.signal.aborted) setError(errorMessage(err));
    } finally {
      if (controller.current === c) setBusy(false);
    }
  };
  return (
    <section className="pipeline-ai card" aria-label="Pipeline analysis">
      <div className="ai-head">
        <div className="ai-head-info">
          <Icon.sparkle size={16} />
          <strong>Why did this pipeline fail?</strong>
          {result?.cached && <span className="tag tag-cached">cached</span>}
          {result && (
            <span className="muted small" title={result.timestamp}>
              {timeAgo(result.timestamp, now)}
            </span>
          )}
        </div>
        <div className="ai-actions">
          <button
            type="button"
            className="btn btn-small btn-ai"
            disabled={busy}
            onClick={() => void run(result !== null)}
          >
            {busy ? <Spinner label="Analysing" /> : <Icon.sparkle size={14} />}
            {result ? 'Re-analyse' : `Analyze all ${failedJobs} failed jobs`}
          </button>
        </div>
      </div>
      {error && <ErrorBox title="The pipeline analysis failed" message={error} />}
      {busy && (
        <div className="ai-analysis">
          <StreamingText text={streamed} waiting="Reading every failed job…" />
        </div>
      )}
      {!busy && result && (
        <div className="ai-analysis">
          <Markdown source={result.analysis} />
          <BuiltInNote text={result.analysis} />
          {result.jobs.length > 0 && (
            <div className="pipeline-ai-jobs">
              {result.jobs.map((j) => (
                <button
                  key={j.jobId}
                  type="button"
                  className="tag tag-button"
                  onClick={() => onOpenJob(j.jobId)}
                >
                  Problem {j.problem}: {j.jobName}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
