/**
 * Deploys: deploy tools refusing credentials, clusters and hosts out of reach, manifests and
 * infrastructure code rejected, rollouts and locks.
 */
import { defineFamily } from '../rule.ts';

/** Deploy tools, clusters, hosts and infrastructure code. */
export const deployFamily = defineFamily({
  name: 'deploy',
  // prettier-ignore
  hints: [
    'err', 'fail', 'fatal', 'exception', 'deadline', 'denied', 'forbidden', 'refused',
    'unreachable', 'not found', 'no such', 'cannot', "can't", 'could not', "couldn't", 'unable',
    'invalid', 'yaml', 'unknown', 'missing', 'conflict', 'syntax', 'exceeded', 'cancel', 'resolv',
    'expiredtoken', 'credential', 'expired', 'logged in',
  ],
  rules: {
    // Zero-shot (deploy): deploy tools refusing the job's credentials, in their own words, before
    // the generic rules in precedence (which read `PERMISSION_DENIED` or `is forbidden` as nothing
    // or a script error). Kubernetes RBAC (`… is forbidden: User "…" cannot patch resource
    // "deployments" …`, also inside Helm's errors; a quota or PodSecurity `is forbidden` is not
    // auth, https://kubernetes.io/docs/reference/access-authn-authz/rbac/), kubectl without valid
    // credentials (`error: You must be logged in to the server (Unauthorized)`, client-go's exec
    // credential plugin failing,
    // https://kubernetes.io/docs/reference/access-authn-authz/authentication/), gcloud's `ERROR:
    // (gcloud.run.deploy) PERMISSION_DENIED: …` and its auth commands
    // (https://cloud.google.com/sdk/docs/authorizing), the Azure CLI's `Please run 'az login' to
    // setup account.` and ARM's AuthorizationFailed
    // (https://github.com/Azure/azure-cli/blob/dev/src/azure-cli-core/azure/cli/core/_profile.py,
    // https://learn.microsoft.com/azure/role-based-access-control/troubleshooting), azure/login,
    // STS's ExpiredTokenException, the Terraform AWS provider without credentials (`no valid
    // credential sources for Terraform AWS Provider found`, v5 `No valid credential sources found`,
    // https://registry.terraform.io/providers/hashicorp/aws/latest/docs#authentication-and-configuration),
    // the Google provider's `Attempted to load application default credentials since neither
    // 'credentials' nor 'access_token' was set` (quoted in backticks in the log,
    // https://registry.terraform.io/providers/hashicorp/google/latest/docs/guides/provider_reference#authentication),
    // HCP Terraform's `Error: Required token could not be found`
    // (https://developer.hashicorp.com/terraform/cli/commands/login), flyctl's and Vercel's CLIs
    // without a token (`No access token available. Please login with 'flyctl auth login'`, `No
    // existing credentials found. Please run 'vercel login'` with backticks,
    // https://vercel.com/docs/cli/login), the Serverless Framework's `AWS provider credentials not
    // found.` (https://github.com/serverless/serverless/blob/main/lib/plugins/aws/provider.js), the
    // Firebase CLI's `Failed to authenticate, have you run firebase login?`
    // (https://github.com/firebase/firebase-tools/blob/master/src/auth.ts), Ansible's SSH login
    // refused (`UNREACHABLE! … Permission denied (publickey)`), become password and vault secrets
    // (https://docs.ansible.com/ansible/latest/vault_guide/vault_using_encrypted_content.html).
    credentials: {
      re: /\bis forbidden: User "[^"]*" cannot \w+ |\bYou must be logged in to the server\b|\bgetting credentials: exec: |^ERROR: \(gcloud[\w.-]*\) (?:PERMISSION_DENIED|UNAUTHENTICATED)\b|^ERROR: \(gcloud\.auth\.[\w.-]+\) |^ERROR: \(gcloud[\w.-]*\) .*\bdoes not have (?:permission to|any valid credentials)\b|\bThere was a problem refreshing your current auth tokens\b|\bPlease run 'az login' to setup account\b|^ERROR: \((?:AuthorizationFailed|InvalidAuthenticationToken\w*|ExpiredAuthenticationToken|AuthenticationFailed)\)|\bdoes not have authorization to perform action '|\bAz CLI Login failed\b|\bExpiredTokenException\b|\bno valid credential sources for Terraform AWS Provider found\b|\bNo valid credential sources found\b|\bAWS provider credentials not found\b|\bAttempted to load application default credentials since neither\b|^[\s│]*Error: Required token could not be found\b|\bNo access token available\. Please login with 'flyctl auth login'|\bNo existing credentials found\. Please run `vercel login`|\bFailed to authenticate, have you run\b|^fatal: \[[^\]]+\]: UNREACHABLE! .*\bPermission denied \(|\b(?:Missing|Incorrect) (?:sudo|become|su) password\b|^ERROR! (?:Attempting to decrypt but no vault secrets found|Decryption failed \(no vault secrets)/,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
    // Zero-shot (deploy): hosts and clusters a deploy cannot reach. Ansible's `fatal: [web1]:
    // UNREACHABLE! => {… "Failed to connect to the host via ssh: … Connection timed out" …}`
    // (https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_error_handling.html#ignoring-unreachable-host-errors;
    // a refused SSH key is auth, above) and Helm's `Error: Kubernetes cluster unreachable: Get
    // "https://…": dial tcp …` (https://helm.sh/docs/faq/troubleshooting/). Both with no kubeconfig
    // at all (`invalid configuration: no configuration has been provided`, or kubectl falling back
    // to `localhost:8080`,
    // https://kubernetes.io/docs/tasks/access-application-cluster/configure-access-multiple-clusters/)
    // are the job's configuration: the kubeconfig was never written.
    'no-kubeconfig': {
      re: /Kubernetes cluster unreachable: (?:invalid configuration\b|Get "http:\/\/localhost:8080\/)|\bThe connection to the server localhost:8080 was refused\b/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
    unreachable: {
      re: /^fatal: \[[^\]]+\]: UNREACHABLE! |\bKubernetes cluster unreachable\b|\bThe connection to the server \S+ was refused - did you specify the right host or port\?/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Zero-shot (deploy): manifests, charts, HCL and playbooks the tools reject. kubectl's
    // client-side validation (`error validating data: ValidationError(Deployment.spec): unknown
    // field …`, but not `error validating data: failed to download openapi`, a cluster not reached)
    // and the API server's strict field validation (`… cannot be handled as a Deployment: strict
    // decoding error: unknown field "spec.replica"`,
    // https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation), `The
    // Deployment "web" is invalid: …`, a kind the cluster does not serve (`no matches for kind
    // "Ingress" in version "extensions/v1beta1"`); Helm's template, parse, `required` and schema
    // errors, manifests it cannot build (https://helm.sh/docs/chart_template_guide/debugging/) and
    // `helm lint`'s verdict; Terraform's HCL parse and type errors the older rule below does not
    // list (https://github.com/hashicorp/hcl/blob/main/hclsyntax/parser.go); Ansible's playbook
    // errors (`ERROR! Syntax Error while loading YAML.`, `ERROR! the role 'x' was not found in …`,
    // `ERROR! couldn't resolve module/action 'x'`, `ERROR! 'x' is not a valid attribute for a
    // Play`, https://github.com/ansible/ansible/blob/devel/lib/ansible/playbook/base.py); the
    // Firebase CLI outside a project (`Not in a Firebase app directory (could not locate
    // firebase.json)`); CloudFormation rejecting a template (`An error occurred (ValidationError)
    // when calling the CreateStack operation: Template format error: …`,
    // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html).
    'manifest-rejected': {
      re: /\berror validating data: (?!failed to download openapi)|\bstrict decoding error: unknown field\b|\bcannot be handled as a \w+: |^The \w+ "[^"]*" is invalid: |^Error from server \(Invalid\): |\bno matches for kind "[^"]+" in version\b|^Error: (?:(?:INSTALLATION|UPGRADE) FAILED: )?(?:template: \S+:\d+:\d+: executing |parse error at \(|execution error at \(|unable to build kubernetes objects from release manifest: |values don't meet the specifications of the schema|chart requires kubeVersion: )|^Error: \d+ chart\(s\) linted, [1-9]\d* chart\(s\) failed|^[\s│]*Error: (?:Argument or block definition required|Invalid block definition|Unclosed configuration block|Missing newline after argument|Invalid character|Invalid multi-line string|Duplicate \w+ (?:configuration|definition)|Incorrect attribute value type|Invalid (?:for_each|count) argument|Unsupported Terraform Core version|Missing required provider)\b|^ERROR! (?:Syntax Error while loading YAML|the role '[^']+' was not found\b|couldn't resolve module\/action '|conflicting action statements\b|'[^']+' is not a valid attribute for a \w+|the field '[^']+' (?:is required but was not set|has an invalid value)|the playbook: \S+ could not be found|no (?:module\/)?action detected in task|We were unable to read either as JSON nor YAML|A malformed block was encountered)|\bNot in a Firebase app directory\b|\boperation: Template format error: /,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
    // Zero-shot (deploy): a rollout that never became ready, a deploy or state locked by another
    // run, and migrations that failed: the job's own deploy step, not its configuration. kubectl
    // rollout status's `error: deployment "web" exceeded its progress deadline`
    // (https://github.com/kubernetes/kubectl/blob/master/pkg/polymorphichelpers/rollout_status.go),
    // Helm's `another operation (install/upgrade/rollback) is in progress`
    // (https://github.com/helm/helm/blob/main/pkg/action/action.go) and `rendered manifests contain
    // a resource that already exists` (an object left in the cluster by an earlier deploy that the
    // release does not own, https://github.com/helm/helm/blob/main/pkg/action/validate.go),
    // Terraform's `Error acquiring the state lock`
    // (https://developer.hashicorp.com/terraform/language/state/locking; the older rule below
    // called it configuration) and a working directory never initialised (`Backend initialization
    // required`, `Module not installed`,
    // https://developer.hashicorp.com/terraform/cli/commands/init), Flyway's `Migration of schema
    // "public" to version "2 - add index" failed!` and `Migration V2__add_index.sql failed`
    // (https://documentation.red-gate.com/fd/migrate-184127460.html), Liquibase's `Migration failed
    // for changeset` (https://docs.liquibase.com/commands/update/update.html), Alembic's `FAILED:
    // Target database is not up to date.` and its `ERROR [alembic.…]` log line
    // (https://github.com/sqlalchemy/alembic/blob/main/alembic/util/messaging.py; `FAILED:` would
    // otherwise read as a failing test), Django's migration graph errors
    // (https://docs.djangoproject.com/en/stable/topics/migrations/), Rails's pending migrations
    // (https://guides.rubyonrails.org/active_record_migrations.html) and Prisma Migrate's P3xxx
    // (https://www.prisma.io/docs/orm/reference/error-reference#prisma-migrate-migration-engine);
    // the AWS CLI's waiters giving up (`Waiter ServicesStable failed: Max attempts exceeded`,
    // `Waiter StackCreateComplete failed: … "ROLLBACK_COMPLETE"`,
    // https://docs.aws.amazon.com/cli/latest/reference/ecs/wait/services-stable.html) and
    // CloudFormation refusing to update a stack that failed (`… is in ROLLBACK_COMPLETE state and
    // can not be updated`; its `No updates are to be performed.` is left alone: scripts often print
    // and then ignore it).
    'rollout-or-lock': {
      re: /\bexceeded its progress deadline\b|\banother operation \(install\/upgrade\/rollback\) is in progress\b|\brendered manifests contain a resource that already exists\b|\bError acquiring the state lock\b|^[\s│]*Error: (?:Backend initialization required|Module not installed|Required plugins are not installed)\b|\bMigration of schema .* failed!|^ERROR: Migration \S+ failed\b|^ERROR: Validate failed: |\bMigration failed for changeset\b|^ERROR \[alembic\.[\w.]+\] |^\s*FAILED: (?:Target database is not up to date|Can't locate revision|Multiple head revisions|Multiple heads are present|Current revision \S+ does not match|No such revision|Requested revision|Path doesn't exist|No config file)|\bdjango\.db\.migrations\.exceptions\.\w+|\bConflicting migrations detected\b|\bActiveRecord::PendingMigrationError\b|\bMigrations are pending\. To resolve this issue\b|\ball later migrations canceled\b|^Error: P3\d{3}\b|\bWaiter \w+ failed: |\bis in \w+_(?:COMPLETE|FAILED|IN_PROGRESS) state and can not be updated\b/,
      score: 88,
      kind: 'error',
      category: 'script_error',
    },
    // Infrastructure-as-code configuration.
    'terraform-config': {
      re: /Error: (?:Reference to undeclared|Unsupported (?:argument|attribute|block type)|Invalid (?:reference|value|expression|function argument)|Missing required argument|Unknown variable|Error acquiring the state lock)|Error: .*\.tf line \d+/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
    // Ansible: a failed loop item (`failed: [host] (item=x) => {…}`; `fatal: [host]: FAILED!` is
    // script/generic-error's), and the Python OS error a module reports as its `msg` (`rmtree
    // failed: [Errno 30] Read-only file system: …`), a line of its own once the distiller expands
    // the result.
    'ansible-item-failed': {
      re: /^failed: \[[^\]]+\](?: \(item=.*?\))? => \{|^\w[\w ]* failed: \[Errno \d+\] /,
      score: 85,
      kind: 'error',
      category: 'script_error',
    },
  },
  advice: {
    'state-locked': {
      category: 'script_error',
      when: /Error acquiring the state lock/,
      steps: [
        'Another Terraform run holds the state lock, or a cancelled one left it: wait for the other run, then `terraform force-unlock <lock id>` (the id is in the lock info above) only once no run is active.',
      ],
    },
    'helm-release-pending': {
      category: 'script_error',
      when: /another operation \(install\/upgrade\/rollback\) is in progress/,
      steps: [
        'The Helm release is stuck in a pending state from an interrupted deploy: `helm history <release>` shows it; `helm rollback <release> <last deployed revision>` frees it.',
      ],
    },
    'rollout-not-ready': {
      category: 'script_error',
      when: /exceeded its progress deadline/,
      steps: [
        'The new pods never became ready: `kubectl describe` and `kubectl logs` of the new ReplicaSet’s pods show why (a crash loop, a failing readiness probe, an image that cannot be pulled).',
      ],
    },
    'permission-missing': {
      category: 'permission_auth',
      when: /is forbidden: User "[^"]*" cannot |PERMISSION_DENIED|does not have authorization to perform action|\(AuthorizationFailed\)/,
      steps: [
        'The identity the job deploys as is missing the permission named above: grant that role or permission to the service account (Kubernetes RBAC, the cloud IAM role), scoped to what the job needs.',
      ],
    },
    'host-unreachable': {
      category: 'dependency_network',
      when: /UNREACHABLE!/,
      steps: [
        'Ansible could not reach the host over SSH: check from the runner that the host name resolves and port 22 is open to it (firewall, security group), and that the inventory address is right.',
      ],
    },
  },
});
