// Dev entry: `npx tsx server/simulator/main.ts --port 4100 [--projects 40] [--seed 7] [--static]`.
import { parseArgs } from 'node:util';
import { startSimulator } from './index.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4100' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string' },
    projects: { type: 'string' },
    'pipelines-per-day': { type: 'string' },
    days: { type: 'string' },
    'latency-ms': { type: 'string' },
    'tick-ms': { type: 'string' },
    group: { type: 'string' },
    token: { type: 'string', multiple: true },
    static: { type: 'boolean', default: false },
  },
});

const num = (v: string | undefined): number | undefined =>
  v === undefined ? undefined : Number(v);

const sim = await startSimulator({
  host: values.host,
  port: num(values.port),
  seed: num(values.seed),
  projects: num(values.projects),
  pipelinesPerDay: num(values['pipelines-per-day']),
  days: num(values.days),
  latencyMs: num(values['latency-ms']),
  tickMs: num(values['tick-ms']),
  groupPath: values.group,
  tokens: values.token,
  live: !values.static,
});
const c = sim.counts();
process.stdout.write(
  `GitLab simulator on ${sim.url}\n` +
    `  token: ${sim.token}\n` +
    `  group: ${sim.groupPath}\n` +
    `  ${c.groups} groups, ${c.projects} projects, ${c.pipelines} pipelines, ${c.jobs} jobs, ${c.users} users\n` +
    `  try: curl -H 'PRIVATE-TOKEN: ${sim.token}' '${sim.url}/api/v4/groups/${encodeURIComponent(sim.groupPath)}/projects?include_subgroups=true&archived=false'\n`,
);
const stop = (): void => {
  void sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
