import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, event-loop lag, GC, handles: prom-client's default
 * metrics, under their standard `process_` and `nodejs_` names so stock dashboards read them). One
 * registry for the whole process, made on first use: they describe the process, not a service in
 * it, and each `collectDefaultMetrics` call starts an event-loop-delay monitor and a GC observer
 * that are never stopped, so one per service would pile up as services are composed again (the
 * desktop app's restarts, the tests).
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
