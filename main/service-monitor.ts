import type { RunningService } from '../server/compose.ts';
import type { ServiceMonitor } from './desktop-shell.ts';

/** The tray's view of a service running in this process: live numbers, events, pause/resume. */
export function serviceMonitor(service: RunningService): ServiceMonitor {
  return {
    live() {
      const snapshot = service.poller.snapshot;
      const status = service.poller.status;
      return {
        status: status.state,
        lastError: status.last_error,
        running: snapshot.summary.running,
        projects: snapshot.projects.length,
        notifications: service.failureEvents.state(),
      };
    },
    onEvent: (listener) => service.failureEvents.onEvent(listener),
    pause: () => service.poller.stop(),
    resume: () => service.poller.start(),
  };
}
