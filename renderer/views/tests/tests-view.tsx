import { useState } from 'react';
import type { FailingTest } from '../../../server/contract.ts';
import { getFailingTests, getFlakyTests } from '../../api/tests.ts';
import { AppLink } from '../../components/app-link.tsx';
import { EmptyState, ErrorBox, SkeletonCard } from '../../components/feedback.tsx';
import { ProjectSelect } from '../../components/project-select.tsx';
import { SearchField } from '../../components/search-field.tsx';
import { timeAgo } from '../../lib/format.ts';
import { useAsync, useNow } from '../../lib/hooks.ts';
import { pipelinePath } from '../../lib/router.ts';
import { describeSince } from '../../lib/since.ts';
import '../health/health.css';
import { TestHistory } from './test-history.tsx';
import './tests.css';

const keyOf = (t: { project_id: number; suite: string; classname: string; name: string }) =>
  `${t.project_id}\n${t.suite}\n${t.classname}\n${t.name}`;

/** Whether a test matches the name filter (its name, class or suite, any case). */
export function matchesTest(
  t: { suite: string; classname: string; name: string },
  query: string,
): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [t.name, t.classname, t.suite].some((s) => s.toLowerCase().includes(q));
}

function FailingRow({ t, now }: { t: FailingTest; now: Date }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr>
        <td>
          <button
            type="button"
            className="test-expand"
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
          >
            <span className="test-name">{t.name}</span>
            <span className="test-class">
              {t.classname} · {t.suite}
              {t.file ? ` · ${t.file}` : ''}
            </span>
          </button>
          {t.failing_on_default_branch && <span className="tag tag-failed">default branch</span>}
          {t.flaky && <span className="tag tag-flaky">flaky</span>}
        </td>
        <td>{t.project_name}</td>
        <td className="num" title={`${t.failures} failed of ${t.runs} runs`}>
          {t.failures}/{t.runs}
        </td>
        <td>
          <AppLink
            href={pipelinePath(t.project_id, t.last_failure.pipeline_id, t.last_failure.job_id)}
          >
            #{t.last_failure.pipeline_id}
          </AppLink>{' '}
          <span className="muted small" title={t.last_failure.at}>
            {timeAgo(t.last_failure.at, now)} on {t.last_failure.ref}
          </span>
        </td>
        <td className="small">
          since{' '}
          <AppLink href={pipelinePath(t.project_id, t.first_failure.pipeline_id)}>
            #{t.first_failure.pipeline_id}
          </AppLink>{' '}
          <span className="muted" title={t.first_failure.at}>
            ({timeAgo(t.first_failure.at, now)})
          </span>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={5}>
            <TestHistory projectId={t.project_id} classname={t.classname} name={t.name} />
            <a href={t.last_failure.web_url} target="_blank" rel="noreferrer" className="small">
              Job log of the last failure in GitLab
            </a>
          </td>
        </tr>
      )}
    </>
  );
}

/** Tests: failing and flaky tests across the group from GitLab's JUnit reports. */
export default function TestsView() {
  const now = useNow();
  const [projectId, setProjectId] = useState<number | undefined>(undefined);
  const [query, setQuery] = useState('');
  const [failing, reload] = useAsync((signal) => getFailingTests(undefined, signal), []);
  const [flaky] = useAsync((signal) => getFlakyTests(signal), []);
  if (failing.status === 'error' && !failing.data)
    return <ErrorBox title="Cannot load failing tests" message={failing.error} onRetry={reload} />;
  const data = failing.data;
  const projects = data
    ? [...new Map(data.tests.map((t) => [t.project_id, t.project_name])).entries()]
        .map(([id, name]) => ({ id, name }))
        .sort((a, b) => a.name.localeCompare(b.name))
    : [];
  const keep = (t: { project_id: number; suite: string; classname: string; name: string }) =>
    (projectId === undefined || t.project_id === projectId) && matchesTest(t, query);
  const shown = data?.tests.filter(keep) ?? [];
  const flakyShown = flaky.data?.tests.filter(keep) ?? [];
  return (
    <div className="health-view tests-view">
      <div className="tests-filters">
        <label>
          <span className="visually-hidden">Project</span>
          <ProjectSelect projects={projects} value={projectId} onChange={setProjectId} />
        </label>
        <SearchField
          placeholder="Filter by test name"
          aria-label="Filter by test name"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {!data ? (
        <SkeletonCard rows={5} height={40} />
      ) : shown.length === 0 ? (
        <EmptyState title="No failing tests">
          <p>
            No test {query || projectId ? 'matching the filter ' : ''}failed in the last{' '}
            {describeSince(data.window.since)} (only jobs that upload JUnit reports are seen).
          </p>
        </EmptyState>
      ) : (
        <div className="card">
          <h2 className="card-title">Failing tests</h2>
          <table className="health-table" aria-label="Failing tests">
            <thead>
              <tr>
                <th scope="col">Test</th>
                <th scope="col">Project</th>
                <th scope="col" className="num">
                  Failed
                </th>
                <th scope="col">Last failure</th>
                <th scope="col">First failure</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((t) => (
                <FailingRow key={keyOf(t)} t={t} now={now} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {flakyShown.length > 0 && (
        <div className="card">
          <h2 className="card-title">Flaky tests</h2>
          <table className="health-table" aria-label="Flaky tests">
            <thead>
              <tr>
                <th scope="col">Test</th>
                <th scope="col">Project</th>
                <th scope="col" className="num">
                  Flakes
                </th>
                <th scope="col" className="num">
                  Rate
                </th>
                <th scope="col">Last flake</th>
              </tr>
            </thead>
            <tbody>
              {flakyShown.map((t) => (
                <tr key={keyOf(t)}>
                  <td>
                    <span className="test-name">{t.name}</span>
                    <span className="test-class">
                      {t.classname} · {t.suite}
                    </span>
                  </td>
                  <td>{t.project_name}</td>
                  <td className="num">{t.flakes}</td>
                  <td className="num" title={`${t.flakes} of ${t.runs} runs`}>
                    {t.flake_rate.toFixed(1)}%
                  </td>
                  <td>
                    <AppLink href={pipelinePath(t.project_id, t.last_flake.pipeline_id)}>
                      #{t.last_flake.pipeline_id}
                    </AppLink>{' '}
                    <span className="muted small" title={t.last_flake.at}>
                      {timeAgo(t.last_flake.at, now)}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
