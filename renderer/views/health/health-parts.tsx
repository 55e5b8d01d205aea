import type { HealthPipeline } from '../../../server/contract.ts';
import { AppLink } from '../../components/app-link.tsx';
import { pipelinePath } from '../../lib/router.ts';

/**
 * The health area's title and tabs: default branches, flaky jobs, trends (plain links, one URL
 * each).
 */
export function HealthToolbar({ active }: { active: 'branches' | 'flaky' | 'trends' }) {
  const tabs = [
    { id: 'branches', path: '/health', label: 'Default branches' },
    { id: 'flaky', path: '/health/flaky', label: 'Flaky jobs' },
    { id: 'trends', path: '/health/trends', label: 'Durations' },
  ] as const;
  return (
    <div className="toolbar">
      <h1 className="view-title">Group health</h1>
      <nav className="health-tabs" aria-label="Group health">
        {tabs.map((t) => (
          <AppLink key={t.id} href={t.path} aria-current={active === t.id ? 'page' : undefined}>
            {t.label}
          </AppLink>
        ))}
      </nav>
    </div>
  );
}

/** `#123` linking to the pipeline panel. */
export function PipelineLink({
  pipeline,
}: {
  pipeline: Pick<HealthPipeline, 'project_id' | 'pipeline_id'>;
}) {
  return (
    <AppLink href={pipelinePath(pipeline.project_id, pipeline.pipeline_id)}>
      #{pipeline.pipeline_id}
    </AppLink>
  );
}
