import type { SimJob } from './model.ts';
import { ACTIVE_JOB_STATUSES, stepsFor } from './plan.ts';

/** A live job back to its not-yet-run state (plan kept). */
export function resetJob(job: SimJob): void {
  job.status = 'created';
  job.queuedAt = null;
  job.startedAt = null;
  job.finishedAt = null;
  job.stepsDone = 0;
  job.coverage = null;
  if (job.plannedStatus === 'success') job.failure = null;
}

/**
 * Turns a pipeline planned into the future into its state at `now`: earlier stages as planned,
 * the stage under way by the clock, later stages not yet created. Live steps take it from there.
 */
export function rewindToNow(jobs: SimJob[], now: number): void {
  const current = jobs.find(
    (j) => j.finishedAt === null || j.finishedAt > now || ACTIVE_JOB_STATUSES.has(j.status),
  );
  const currentStage = current ? current.stageIndex : Infinity;
  for (const job of jobs) {
    if (job.stageIndex < currentStage) continue;
    if (job.stageIndex > currentStage) {
      resetJob(job);
      continue;
    }
    if (job.manual && job.status === 'manual') continue;
    if (job.status === 'canceled' || job.status === 'skipped') resetJob(job);
    if (job.finishedAt !== null && job.finishedAt <= now) continue;
    if (job.startedAt !== null && job.startedAt <= now) {
      const remaining = (job.finishedAt ?? now) - now;
      const total = Math.max(1, job.plannedDurationMs);
      job.steps = Math.max(job.steps, stepsFor(total));
      job.stepsDone = Math.min(
        job.steps - 1,
        Math.floor(((total - remaining) / total) * job.steps),
      );
      job.status = 'running';
      job.finishedAt = null;
      job.coverage = null;
    } else if (job.queuedAt !== null && job.queuedAt <= now) {
      job.status = 'pending';
      job.startedAt = null;
      job.finishedAt = null;
    } else {
      resetJob(job);
    }
  }
}
