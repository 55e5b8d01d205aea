// Commands the analyser must never propose to run from a laptop: they change something other
// people rely on (an environment, a registry, a shared database). Each has a read-only
// counterpart that shows the same failure: `terraform plan` for `apply`, `helm template` for
// `upgrade`, `kubectl diff` for `apply`, `--dry-run` for a publish.

/** One kind of command that changes remote state, and how to turn it into one that does not. */
export interface UnsafeCommand {
  /** A short name for tests and reports (`terraform-apply`). */
  name: string;
  /** The command and its arguments up to the end of its shell segment (no `g` flag). */
  pattern: RegExp;
  /** What running it changes, in a reader's words. */
  target: string;
  /** The read-only command to run instead, from the matched text. */
  safe: (match: RegExpExecArray) => string;
}

// A command's arguments: up to the end of its shell segment or a quote (a `sh -c '…'` wrapper).
const ARGS = String.raw`[^;&|'"\n]*`;
const words = (s: string) => s.trim().split(/\s+/).filter(Boolean);
const hasDryRun = (s: string) => /--dry-run\b(?!=none)/.test(s);

function rule(
  name: string,
  source: string,
  target: string,
  safe: (m: RegExpExecArray) => string,
): UnsafeCommand {
  return { name, pattern: new RegExp(source), target, safe };
}

/** The commands that change remote state, each with its safe alternative. */
export const UNSAFE_COMMANDS: readonly UnsafeCommand[] = [
  // `apply PLANFILE` applies a saved plan, which `show` prints; otherwise `plan` computes the same
  // changes without making them (https://developer.hashicorp.com/terraform/cli/commands/plan).
  rule(
    'terraform-apply',
    String.raw`\b(terraform|tofu|terragrunt)\s+((?:-chdir=\S+\s+)?(?:run-all\s+)?)(apply|destroy)\b(${ARGS})`,
    'the infrastructure Terraform manages (a shared environment and its state)',
    (m) => {
      const args = words(m[4]!).filter((w) => !/^-auto-approve\b|^-?-destroy$/.test(w));
      const planFile = args.find((w) => !w.startsWith('-'));
      const flags = args.filter((w) => w.startsWith('-'));
      if (planFile && m[3] === 'apply') return `${m[1]} ${m[2]}show ${planFile}`;
      return [`${m[1]} ${m[2]}plan`, ...(m[3] === 'destroy' ? ['-destroy'] : []), ...flags].join(
        ' ',
      );
    },
  ),
  rule(
    'terraform-state',
    String.raw`\b(terraform|tofu)\s+((?:-chdir=\S+\s+)?)(?:import|taint|untaint|state\s+(?:rm|mv|push|replace-provider))\b${ARGS}`,
    'the Terraform state other runs share',
    (m) => `${m[1]} ${m[2]}plan`,
  ),
  // `helm template` renders the same manifests locally; it takes install's flags but not
  // upgrade's own (https://helm.sh/docs/helm/helm_template/).
  rule(
    'helm-upgrade',
    String.raw`\bhelm\s+(?:upgrade|install)\b(${ARGS})`,
    'the release in the cluster',
    (m) =>
      hasDryRun(m[1]!)
        ? m[0]
        : [
            'helm template',
            ...words(m[1]!).filter(
              (w) =>
                !/^(?:--install|-i|--reuse-values|--reset-values|--reset-then-reuse-values|--force|--cleanup-on-fail|--history-max(?:=\S+)?)$/.test(
                  w,
                ),
            ),
          ].join(' '),
  ),
  rule(
    'helm-uninstall',
    String.raw`\bhelm\s+(?:uninstall|delete|del|un)\b(${ARGS})`,
    'the release in the cluster',
    (m) => `helm status ${words(m[1]!).find((w) => !w.startsWith('-')) ?? '<release>'}`,
  ),
  // `kubectl diff` shows what apply would change; the others accept `--dry-run=server`, which
  // sends the request for validation without persisting it
  // (https://kubernetes.io/docs/reference/kubectl/generated/kubectl_apply/).
  rule(
    'kubectl-apply',
    String.raw`\b(kubectl|oc)((?:\s+(?:-n|--namespace|--context|--kubeconfig)[= ]\S+)*)\s+apply\b(${ARGS})`,
    'the resources in the cluster',
    (m) =>
      hasDryRun(m[3]!)
        ? m[0]
        : [`${m[1]}${m[2]} diff`, ...words(m[3]!).filter((w) => !/^--prune\b/.test(w))].join(' '),
  ),
  rule(
    'kubectl-change',
    String.raw`\b(kubectl|oc)((?:\s+(?:-n|--namespace|--context|--kubeconfig)[= ]\S+)*)\s+(create|replace|delete|patch|scale|set|label|annotate|drain|taint|autoscale|expose|rollout\s+(?:restart|undo|pause|resume))\b(${ARGS})`,
    'the resources in the cluster',
    (m) => (hasDryRun(m[4]!) ? m[0] : `${m[0].trimEnd()} --dry-run=server`),
  ),
  rule(
    'image-push',
    String.raw`\b(docker|podman|buildah)\s+(?:image\s+)?push\b(${ARGS})`,
    'the image in the registry other jobs and deployments pull',
    (m) =>
      `${m[1]} image inspect ${words(m[2]!).find((w) => !w.startsWith('-')) ?? '<image>'}`.trim(),
  ),
  rule(
    'compose-push',
    String.raw`\bdocker[- ]compose\b(${ARGS}?)\s+push\b(${ARGS})`,
    'the images in the registry other jobs and deployments pull',
    (m) => `docker compose${m[1]} build${m[2]}`,
  ),
  rule(
    'buildx-push',
    String.raw`\bdocker\s+buildx\s+(?:build|bake)\b${ARGS}(?:\s--push\b|--output[= ]\S*type=registry)${ARGS}`,
    'the image in the registry other jobs and deployments pull',
    (m) =>
      m[0]
        .replace(/\s--push\b/, ' --load')
        .replace(/(--output[= ]\S*)type=registry/, '$1type=docker'),
  ),
  // Kaniko pushes to `--destination` unless told not to
  // (https://github.com/GoogleContainerTools/kaniko#flag---no-push).
  rule(
    'kaniko-push',
    String.raw`\/kaniko\/executor\b(?!${ARGS}--no-push)${ARGS}`,
    'the image in the registry other jobs and deployments pull',
    (m) => `${m[0].trimEnd()} --no-push`,
  ),
  rule(
    'git-push',
    String.raw`\bgit\s+push\b(?!${ARGS}(?:--dry-run|\s-n\b))${ARGS}`,
    'the branches and tags of the shared repository',
    (m) => `${m[0].trimEnd().replace(/\bgit\s+push\b/, 'git push --dry-run')}`,
  ),
  rule(
    'npm-publish',
    String.raw`\b(npm|pnpm)\s+publish\b(?!${ARGS}--dry-run)${ARGS}`,
    'the package in the public registry (a version can never be published twice)',
    (m) => `${m[0].trimEnd()} --dry-run`,
  ),
  rule(
    'yarn-publish',
    String.raw`\byarn\s+(?:npm\s+)?publish\b${ARGS}`,
    'the package in the public registry (a version can never be published twice)',
    () => 'npm pack --dry-run',
  ),
  rule(
    'cargo-publish',
    String.raw`\bcargo\s+publish\b(?!${ARGS}--dry-run)${ARGS}`,
    'the crate on crates.io (a version can never be published twice)',
    (m) => `${m[0].trimEnd()} --dry-run`,
  ),
  rule(
    'twine-upload',
    String.raw`\btwine\s+upload\b${ARGS}`,
    'the package on PyPI (a version can never be uploaded twice)',
    () => 'twine check dist/*',
  ),
  rule(
    'gem-push',
    String.raw`\bgem\s+push\b(${ARGS})`,
    'the gem on RubyGems (a version can never be pushed twice)',
    (m) => `gem spec ${words(m[1]!).find((w) => !w.startsWith('-')) ?? '<file>.gem'}`,
  ),
  rule(
    'semantic-release',
    String.raw`\bsemantic-release\b(?!${ARGS}--dry-run)${ARGS}`,
    'the release, tags and packages it publishes',
    (m) => `${m[0].trimEnd()} --dry-run`,
  ),
  // Maven's deploy phase uploads to the remote repository; verify runs everything before it
  // (https://maven.apache.org/guides/introduction/introduction-to-the-lifecycle.html).
  rule(
    'mvn-deploy',
    String.raw`(\b(?:mvnw?|\.\/mvnw)\b${ARGS}?\s)(deploy(?::deploy(?:-file)?)?|release:perform|jib:build)(?=\s|$|[;&|'"])`,
    'the artifacts in the remote Maven repository or registry',
    (m) => `${m[1]}${m[2] === 'jib:build' ? 'jib:buildTar' : 'verify'}`,
  ),
  rule(
    'gradle-publish',
    String.raw`(\b(?:gradlew?|\.\/gradlew)\b${ARGS}?\s)((?::?[\w-]+:)*)(publish(?!ToMavenLocal\b)\w*|jib)(?=\s|$|[;&|'"])`,
    'the artifacts in the remote repository or registry',
    (m) => `${m[1]}${m[2]}${m[3] === 'jib' ? 'jibDockerBuild' : 'publishToMavenLocal'}`,
  ),
  // Migrations: the job's database is often shared (staging, a review app); these tools print
  // the SQL or the status instead of applying it.
  rule(
    'django-migrate',
    String.raw`\bmanage\.py\s+migrate\b(?!${ARGS}--plan)${ARGS}`,
    'the database it connects to',
    (m) => `${m[0].trimEnd()} --plan`,
  ),
  rule(
    'alembic-upgrade',
    String.raw`\balembic\b${ARGS}?\s(?:upgrade|downgrade)\b(?!${ARGS}--sql)${ARGS}`,
    'the database it connects to',
    (m) => `${m[0].trimEnd()} --sql`,
  ),
  rule(
    'flyway-migrate',
    String.raw`(\bflyway\b${ARGS}?\s)(?:migrate|clean|repair|baseline|undo)\b`,
    'the database it connects to',
    (m) => `${m[1]}info`,
  ),
  rule(
    'liquibase-update',
    String.raw`(\bliquibase\b${ARGS}?\s)(update|rollback(?:-count|-to-date)?|drop-all|dropAll)(?![\w-])`,
    'the database it connects to',
    (m) => `${m[1]}${/^update|^rollback/.test(m[2]!) ? `${m[2]}-sql` : 'status'}`,
  ),
  rule(
    'rails-migrate',
    String.raw`\b(rails|rake|bin\/rails)\s+(?:db:migrate|db:rollback|db:schema:load|db:setup|db:reset|db:drop|db:prepare)\b(?!:status)${ARGS}`,
    'the database it connects to',
    (m) => `${m[1]} db:migrate:status`,
  ),
  rule(
    'prisma-migrate',
    String.raw`\bprisma\s+(?:migrate\s+(?:deploy|reset|dev)|db\s+push)\b${ARGS}`,
    'the database it connects to',
    () => 'prisma migrate status',
  ),
  rule(
    'js-migrate',
    String.raw`\b(knex|sequelize(?:-cli)?|typeorm)\b${ARGS}?\s(?:migrate:(?:latest|up|down|rollback)|db:migrate(?::undo(?::all)?)?|migration:(?:run|revert))\b(?!:status)`,
    'the database it connects to',
    (m) =>
      m[1] === 'knex'
        ? 'knex migrate:status'
        : m[1] === 'typeorm'
          ? 'typeorm migration:show'
          : `${m[1]} db:migrate:status`,
  ),
  rule(
    'artisan-migrate',
    String.raw`\bartisan\s+migrate(?::(?:fresh|refresh|reset|rollback))?\b(?!:status)${ARGS}`,
    'the database it connects to',
    () => 'artisan migrate:status',
  ),
  rule(
    'go-migrate',
    String.raw`(?<![\w:.-]|prisma\s)(goose|dbmate|migrate)\s(?:${ARGS}?\s)?(?:up|down|drop|reset|force|redo|rollback)\b${ARGS}`,
    'the database it connects to',
    (m) => (m[1] === 'migrate' ? 'migrate -path <dir> -database <url> version' : `${m[1]} status`),
  ),
  // Other deploy tools, each with its own preview.
  rule(
    'pulumi-up',
    String.raw`\bpulumi\s+(?:up|destroy|update)\b${ARGS}`,
    'the infrastructure Pulumi manages',
    () => 'pulumi preview',
  ),
  rule(
    'cdk-deploy',
    String.raw`\bcdk\s+(?:deploy|destroy)\b(${ARGS})`,
    'the stacks CDK deploys',
    (m) => `cdk diff${m[1]!.trimEnd()}`,
  ),
  rule(
    'ansible-playbook',
    String.raw`\bansible-playbook\b(?!${ARGS}(?:--check|\s-C\b|--syntax-check|--list-))${ARGS}`,
    'the hosts in the inventory',
    (m) => `${m[0].trimEnd()} --check --diff`,
  ),
  rule(
    'az-deployment',
    String.raw`\baz\s+deployment\s+(group|sub|mg|tenant)\s+create\b(${ARGS})`,
    'the Azure resources it deploys',
    (m) => `az deployment ${m[1]} what-if${m[2]!.trimEnd()}`,
  ),
  rule(
    'platform-deploy',
    String.raw`\b(serverless|sls|sam|firebase|netlify|vercel|fly|flyctl|gcloud(?:\s+[\w-]+){1,2}|aws\s+cloudformation|skaffold|argocd\s+app)\s+(?:deploy|sync|run|remove)\b${ARGS}`,
    'the deployed service',
    (m) =>
      /^(?:fly|flyctl)$/.test(m[1]!)
        ? `${m[1]} deploy --build-only`
        : m[1] === 'skaffold'
          ? 'skaffold render'
          : m[1]!.startsWith('argocd')
            ? 'argocd app diff <app>'
            : m[1]!.startsWith('aws')
              ? 'aws cloudformation validate-template --template-body file://<template>'
              : 'the build step alone (the deploy’s own preview, if it has one)',
  ),
  // A project's own deploy or release script: `make -n` prints its commands without running them.
  rule(
    'deploy-script',
    String.raw`\b(?:(npm|yarn|pnpm)\s+(?:run\s+(?=publish)|(?:run\s+)?(?=deploy|release))|make\s+)((?:deploy|release|publish)[\w:-]*)${ARGS}`,
    'whatever the project’s deploy script deploys',
    (m) => (m[1] ? `${m[1]} run build` : `make -n ${m[2]}`),
  ),
];

/** A part of a command that changes remote state: which rule matched, the text and what it changes. */
export interface RemoteChange {
  rule: string;
  command: string;
  target: string;
  safe: string;
}

/** The parts of `cmd` that change remote state, in order; empty when it is safe to run. */
export function remoteChanges(cmd: string): RemoteChange[] {
  const out: RemoteChange[] = [];
  for (const r of UNSAFE_COMMANDS) {
    const re = new RegExp(r.pattern.source, 'g');
    for (let m = re.exec(cmd); m !== null; m = re.exec(cmd)) {
      const safe = r.safe(m);
      if (safe !== m[0]) out.push({ rule: r.name, command: m[0], target: r.target, safe });
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  return out.sort((a, b) => cmd.indexOf(a.command) - cmd.indexOf(b.command));
}

/** `cmd` with every part that changes remote state replaced by its read-only alternative. */
export function safeAlternative(cmd: string): string {
  let out = cmd;
  for (const c of remoteChanges(cmd)) out = out.replace(c.command, c.safe);
  return out;
}

/**
 * The advice to run `cmd` locally: the command itself when it is safe, else a warning naming what
 * it changes and the read-only command to run instead (never the unsafe command in a code span).
 */
export function reproduceAdvice(cmd: string, lead = 'Reproduce it locally'): string {
  const changes = remoteChanges(cmd);
  if (changes.length === 0) return `${lead} with the same image: \`${cmd}\`.`;
  const targets = [...new Set(changes.map((c) => c.target))].join(' and ');
  return `The failing command changes ${targets}: don't run it from a laptop. ${lead} with the same image and a read-only equivalent instead: \`${safeAlternative(cmd)}\`.`;
}

/**
 * Commands an answer proposes to run that change remote state: code spans in its numbered steps
 * and the contents of its `sh` fences. Quoted log lines (`text` fences) and the failing step's name
 * are evidence, not proposals.
 */
export function unsafeProposals(markdown: string): RemoteChange[] {
  const proposed: string[] = [];
  for (const m of markdown.matchAll(/^(`{3,})sh\n([\s\S]*?)\n\1$/gm)) proposed.push(m[2]!);
  for (const line of markdown.split('\n')) {
    if (!/^\s*\d+\. /.test(line)) continue;
    for (const m of line.matchAll(/`([^`]+)`/g)) proposed.push(m[1]!);
  }
  return proposed.flatMap(remoteChanges);
}
