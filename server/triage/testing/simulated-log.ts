import { renderTrace } from '../../simulator/logs/trace.ts';
import type {
  FailureKind,
  JobTemplate,
  ProjectKind,
  SimJob,
  SimPipeline,
  SimProject,
  ToolKind,
} from '../../simulator/model.ts';

/** Which failed job to render: a failure of `tool` in a project of `kind`, with its seed. */
export interface SimulatedFailure {
  failure: FailureKind;
  tool: ToolKind;
  kind: ProjectKind;
  projectId: number;
  projectPath: string;
  jobId: number;
  seed: number;
  /** When the job started (epoch ms); the log's timestamps follow. */
  startedAt?: number;
}

/**
 * The log the GitLab simulator serves for a failed job, rendered without a server: the same
 * families (server/simulator/logs/) the demo and the integration tests read.
 */
export function simulatedFailureLog(f: SimulatedFailure): string {
  const [group, name] = f.projectPath.split('/') as [string, string];
  const project = {
    id: f.projectId,
    name,
    path: name,
    fullPath: f.projectPath,
    description: '',
    group: { id: 1, name: group, path: group, fullPath: group },
    kind: f.kind,
    defaultBranch: 'main',
  } as unknown as SimProject;
  const startedAt = f.startedAt ?? 1_764_000_000_000;
  const template: JobTemplate = { name: 'job', stage: 'test', tool: f.tool, seconds: [30, 90] };
  const pipeline = {
    id: f.jobId * 10,
    projectId: f.projectId,
    sha: (f.seed * 2_654_435_761).toString(16).padStart(40, 'a').slice(0, 40),
    ref: 'main',
    branch: 'main',
  } as unknown as SimPipeline;
  const job: SimJob = {
    id: f.jobId,
    name: 'job',
    stage: 'test',
    stageIndex: 0,
    template,
    status: 'failed',
    allowFailure: false,
    manual: false,
    createdAt: startedAt - 5_000,
    queuedAt: startedAt - 4_000,
    startedAt,
    finishedAt: startedAt + 60_000,
    failure: f.failure,
    plannedStatus: 'failed',
    plannedDurationMs: 60_000,
    steps: 1,
    stepsDone: 1,
    coverage: null,
  };
  return renderTrace({ seed: f.seed, project, pipeline, job });
}
