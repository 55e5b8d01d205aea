/**
 * `pipeline-summary explain <job>`: why a GitLab job failed, in the terminal. Asks the running
 * service when one answers (it has the token, the provider and the stored analyses), else GitLab
 * directly with the stored token and the analyser in-process (cli/explain/).
 */
import { resolveSummarySettings } from '../../server/config.ts';
import { openSecretStore } from '../../server/platform/os-secret-store.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { helpRequest, type Command } from '../command.ts';
import { CliError } from '../errors.ts';
import { explainJob } from '../explain/explain-job.ts';
import { gitlabJobSource } from '../explain/gitlab-source.ts';
import { gitlabBaseOf, isUnder, parseJobRef, type JobRef } from '../explain/job-ref.ts';
import type { JobSource } from '../explain/job-source.ts';
import { renderExplanation } from '../explain/render-explanation.ts';
import { serviceJobSource } from '../explain/service-source.ts';
import { parseFlags } from '../flags.ts';
import type { Reporter } from '../io.ts';
import { serviceClient, serviceTarget, type ServiceTarget } from '../service/service-target.ts';

const HELP = `Usage: pipeline-summary explain <job URL>
       pipeline-summary explain <project> <job id>

Explains why a GitLab CI job failed: the failing step, the decisive lines of its log and an
analysis (the configured AI provider, else the built-in offline analyser).

It asks the running Pipeline Summary service when one answers (http://127.0.0.1:5100, or --url),
else GitLab directly with the token from GITLAB_TOKEN or 'pipeline-summary token set'.

Arguments:
  <job URL>          e.g. https://gitlab.example.com/group/project/-/jobs/123 (a trailing
                     /raw… is fine)
  <project> <job id> the project's numeric id or full path (group/project), and the job's id

Flags:
  --json             print the explanation as JSON (source, job, failing_step, decisive_lines,
                     log, analysis)
  --force            analyse again even when an analysis is stored
  --url URL          the service to ask (env PIPELINE_SUMMARY_URL); it must answer. A shared
                     service needs its access token in PIPELINE_SUMMARY_ACCESS_TOKEN
  --direct           ask GitLab directly, not the service
  --gitlab-url URL   GitLab base URL for <project> <job id> and relative roots (env GITLAB_URL;
                     default: saved, else https://gitlab.com)
  --data-dir DIR     where settings and analyses.db live (env PIPELINE_SUMMARY_HOME)
  -h, --help         show this help

Examples:
  pipeline-summary explain https://gitlab.com/acme/api/-/jobs/8010204669
  pipeline-summary explain acme/api 8010204669 --json | jq -r .analysis.text
  pipeline-summary explain 38400145 8010204669 --direct

Markdown is rendered on a terminal and printed as written when piped (NO_COLOR disables styles).
Exit status: 0 explained, 1 other errors, 3 token missing or refused, 4 service or GitLab
unreachable, 5 timed out, 6 not a job URL or PROJECT JOB_ID, 7 no such project or job,
8 the job did not fail (passed, cancelled, skipped or still running).`;

/** explain's options, read from its arguments and flags. */
export interface ExplainOptions {
  ref: JobRef;
  service: ServiceTarget;
  direct: boolean;
  json: boolean;
  force: boolean;
  /** The configured GitLab (flag, env, saved settings); a job URL's own origin wins otherwise. */
  gitlabUrl: string;
  dataDir: string;
}

/** The process edges `explain` decides its output by (tests replace them). */
export interface ExplainEdges {
  /** Whether stdout is a terminal. */
  isTty(): boolean;
}

/** Picks the running service when it answers and reads the job's GitLab, else GitLab itself. */
async function openSource(
  options: ExplainOptions,
  env: NodeJS.ProcessEnv,
  report: Reporter,
  tty: boolean,
): Promise<JobSource> {
  const { ref, service } = options;
  if (!options.direct) {
    const client = serviceClient(service, env, { warn: report.info });
    if (service.explicit || (await client.isUp())) {
      const source = await serviceJobSource(client);
      if (ref.kind === 'id' || isUnder(ref.url, source.gitlabUrl)) return source;
      if (service.explicit) {
        throw new CliError(
          'general',
          `the service at ${service.url} reads GitLab at ${source.gitlabUrl}, not ${ref.url.origin}: use --direct`,
        );
      }
      if (tty)
        report.info(`The service reads ${source.gitlabUrl}; asking ${ref.url.origin} directly.`);
    }
  }
  const baseUrl = ref.kind === 'url' ? gitlabBaseOf(ref, options.gitlabUrl) : options.gitlabUrl;
  const { nodeRuntimeProblem } = await import('../../server/platform/node-runtime.ts');
  const problem = nodeRuntimeProblem();
  if (problem) throw new CliError('general', problem);
  const secretStore = await openSecretStore({ env, warn: report.info });
  const token =
    env.GITLAB_TOKEN ||
    (await secretStore.get(SECRET_ACCOUNTS.gitlabToken(baseUrl))) ||
    // `token set --url` keeps tokens per origin.
    (await secretStore.get(SECRET_ACCOUNTS.gitlabToken(new URL(baseUrl).origin)));
  if (!token) {
    const noService = options.direct ? '' : `no service answers at ${service.url} and `;
    throw new CliError(
      'auth_failed',
      `${noService}no GitLab token for ${baseUrl}: start 'pipeline-summary serve', set GITLAB_TOKEN or run 'pipeline-summary token set --url ${new URL(baseUrl).origin}'`,
    );
  }
  return gitlabJobSource({ baseUrl, token, dataDir: options.dataDir, env, secretStore });
}

/** The explain command with its process edges. */
export function explainCommandWith(edges: ExplainEdges): Command<ExplainOptions> {
  return {
    program: 'pipeline-summary explain',
    help: HELP,
    parse(argv, env) {
      const { values, positionals } = parseFlags(
        argv,
        {
          allowPositionals: true,
          options: {
            json: { type: 'boolean' },
            force: { type: 'boolean' },
            url: { type: 'string' },
            direct: { type: 'boolean' },
            'gitlab-url': { type: 'string' },
            'data-dir': { type: 'string' },
            help: { type: 'boolean', short: 'h' },
          },
        },
        'pipeline-summary explain',
      );
      if (values.help) return helpRequest();
      if (positionals.length === 0) return helpRequest(1);
      if (values.direct && values.url !== undefined) {
        throw new CliError('usage', '--direct and --url exclude each other');
      }
      const ref = parseJobRef(positionals);
      const settings = resolveSummarySettings(
        { gitlabUrl: values['gitlab-url'], dataDir: values['data-dir'] },
        env,
      );
      return {
        ref,
        service: serviceTarget(values.url, env),
        direct: values.direct ?? false,
        json: values.json ?? false,
        force: values.force ?? false,
        gitlabUrl: settings.gitlabUrl.replace(/\/+$/, ''),
        dataDir: settings.dataDir,
      };
    },
    async run(options, { io, report }) {
      const tty = edges.isTty() && !options.json;
      const styled = tty && !io.env.NO_COLOR;
      const source = await openSource(options, io.env, report, tty);
      try {
        const explanation = await explainJob(source, options.ref, {
          force: options.force,
          onAnalysing: (job) => {
            if (tty)
              report.info(`Analysing ${job.name} (job ${job.id}) with ${source.description}…`);
          },
        });
        io.stdout.write(
          options.json
            ? `${JSON.stringify(explanation, null, 2)}\n`
            : renderExplanation(explanation, { tty: styled }),
        );
        return 0;
      } finally {
        await source.close();
      }
    },
  };
}

/** `pipeline-summary explain`, deciding its output by whether stdout is a terminal. */
export const explainCommand = explainCommandWith({ isTty: () => process.stdout.isTTY === true });
