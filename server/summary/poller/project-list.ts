import type { GitLabApi } from '../../gitlab/api.ts';
import { toProject } from '../from-gitlab.ts';
import type { TellObserver } from './change-listeners.ts';
import type { WatchedProjects } from './watched-projects.ts';

/** What the project-list refresh needs. */
export interface ProjectListRefreshDeps {
  gitlab: Pick<GitLabApi, 'listGroupProjects'>;
  watched: WatchedProjects;
  tell: TellObserver;
  /** How often the group's project list is re-read. */
  intervalMs: number;
}

/**
 * Re-reads the group's project list every `intervalMs`: new projects join, gone ones leave, and
 * projects the token could not read are tried again. The observer hears each list (the history
 * keeps it for a warm start).
 */
export class ProjectListRefresh {
  private readAt = -Infinity;

  constructor(private readonly deps: ProjectListRefreshDeps) {}

  /** True when the list is `intervalMs` old at `now` (or was never read). */
  due(now: number): boolean {
    return now - this.readAt >= this.deps.intervalMs;
  }

  /** Reads `group`'s projects at `now` and makes them the watched ones (nothing when aborted). */
  async refresh(group: string, now: number, signal: AbortSignal): Promise<void> {
    const projects = await this.deps.gitlab.listGroupProjects(group, signal);
    if (signal.aborted) return;
    this.deps.tell((o) => o.projectsListed?.(projects, now));
    this.deps.watched.replaceProjects(projects.map(toProject));
    this.readAt = now;
  }

  /** A warm start: the list from disk was read at `readAt` and is not re-read before its interval. */
  restore(readAt: number): void {
    this.readAt = readAt;
  }

  /** Reads the list at the next cycle (a new group). */
  reset(): void {
    this.readAt = -Infinity;
  }
}
