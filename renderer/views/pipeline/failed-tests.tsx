import { useState } from 'react';
import type { FailedTest } from '../../../server/contract.ts';
import { AppLink } from '../../components/app-link.tsx';
import { pipelinePath } from '../../lib/router.ts';
import { TestHistory } from '../tests/test-history.tsx';
import '../tests/tests.css';

function FailedTestItem(props: { projectId: number; pipelineId: number; test: FailedTest }) {
  const { projectId, pipelineId, test: t } = props;
  const [open, setOpen] = useState(false);
  return (
    <li>
      <details className="failed-test" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <span className="test-name">{t.name}</span>{' '}
          {t.known_failing_since && (
            <span className="tag tag-failed" title={t.known_failing_since}>
              failing on the default branch since {t.known_failing_since.slice(0, 10)}
            </span>
          )}
          {t.flaky && <span className="tag tag-flaky">flaky</span>}
          <span className="test-class">
            {t.classname} · {t.job_name}
            {t.file ? ` · ${t.file}` : ''}
          </span>
        </summary>
        {t.stack_trace ? (
          <pre aria-label={`Trace of ${t.name}`}>{t.stack_trace}</pre>
        ) : (
          <p className="muted small">GitLab's report has no trace for this test.</p>
        )}
        {open && <TestHistory projectId={projectId} classname={t.classname} name={t.name} />}
        {t.job_id !== null && (
          <AppLink href={pipelinePath(projectId, pipelineId, t.job_id)} className="small">
            Open the log of {t.job_name}
          </AppLink>
        )}
      </details>
    </li>
  );
}

/** A pipeline's failed tests from its JUnit report: trace, history and the job's log, each. */
export function FailedTests(props: {
  projectId: number;
  pipelineId: number;
  tests: readonly FailedTest[];
}) {
  // On a short window the list folds to one line, so that the log keeps most of the panel; the
  // line still names the first test and opens the whole list.
  const [short] = useState(() => window.innerHeight < 760);
  if (props.tests.length === 0) return null;
  const count = `${props.tests.length} failed test${props.tests.length === 1 ? '' : 's'}`;
  return (
    <details className="failed-tests-section" aria-label="Failed tests" open={!short}>
      <summary className="small">
        <strong>{count}</strong>
        <span className="muted">
          {' '}
          · {props.tests[0]!.name}
          {props.tests.length > 1 ? ` and ${props.tests.length - 1} more` : ''}
        </span>
      </summary>
      <ul className="failed-tests">
        {props.tests.map((t) => (
          <FailedTestItem
            key={`${t.suite}\n${t.classname}\n${t.name}`}
            projectId={props.projectId}
            pipelineId={props.pipelineId}
            test={t}
          />
        ))}
      </ul>
    </details>
  );
}
