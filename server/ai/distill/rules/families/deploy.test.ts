import { describe, expect, it } from 'vitest';
import { classifyLine } from '../classify-line.ts';
import { expectDiagnosis, itGivesFamilyAdvice } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { deployFamily } from './deploy.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  // ---- Kubernetes / Helm ----
  {
    what: 'kubectl denied by RBAC',
    from: 'https://kubernetes.io/docs/reference/access-authn-authz/rbac/',
    line: 'Error from server (Forbidden): deployments.apps "web" is forbidden: User "system:serviceaccount:ci:deployer" cannot patch resource "deployments" in API group "apps" in the namespace "prod"',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    // A ResourceQuota also answers `is forbidden`, and is not a credential problem.
    lookalike:
      'Error from server (Forbidden): error when creating "pod.yaml": pods "web" is forbidden: exceeded quota: compute-resources, requested: limits.cpu=2, used: limits.cpu=4, limited: limits.cpu=4',
  },
  {
    what: 'kubectl with a refused or expired token',
    from: 'https://kubernetes.io/docs/reference/access-authn-authz/authentication/',
    line: 'error: You must be logged in to the server (Unauthorized)',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: 'Switched to context "prod".',
  },
  {
    what: "kubectl's exec credential plugin failing",
    from: 'https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins',
    line: 'Unable to connect to the server: getting credentials: exec: executable aws failed with exit code 255',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike:
      'Updated context arn:aws:eks:eu-west-1:123456789012:cluster/prod in /root/.kube/config',
  },
  {
    what: "kubectl's client-side validation",
    from: 'https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation',
    line: 'error: error validating "deploy.yaml": error validating data: ValidationError(Deployment.spec): unknown field "replica" in io.k8s.api.apps.v1.DeploymentSpec; if you choose to ignore these errors, turn validation off with --validate=false',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    // The same wrapper when the cluster cannot be reached to fetch the schema is the network.
    lookalike:
      'error: error validating "full.yaml": error validating data: failed to download openapi: Get "https://10.0.0.1:6443/openapi/v2?timeout=32s": dial tcp 10.0.0.1:6443: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false',
  },
  {
    what: "the API server's strict field validation",
    from: 'https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation',
    line: 'Error from server (BadRequest): error when creating "deploy.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    // `--validate=warn` reports the same field as a warning and applies the rest.
    lookalike: 'Warning: unknown field "spec.replica"',
  },
  {
    what: 'a kind the cluster does not serve',
    from: 'https://kubernetes.io/docs/reference/using-api/deprecation-guide/',
    line: 'error: resource mapping not found for name: "web" namespace: "" from "ingress.yaml": no matches for kind "Ingress" in version "extensions/v1beta1"',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: 'ingress.networking.k8s.io/web created',
  },
  {
    what: 'kubectl rollout status giving up',
    from: 'https://github.com/kubernetes/kubectl/blob/master/pkg/polymorphichelpers/rollout_status.go',
    line: 'error: deployment "web" exceeded its progress deadline',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike:
      'Waiting for deployment "web" rollout to finish: 1 of 3 updated replicas are available...',
  },
  {
    what: 'an API server that cannot be reached',
    from: 'https://kubernetes.io/docs/tasks/debug/debug-cluster/',
    line: 'The connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port?',
    rule: 'deploy/unreachable',
    category: 'dependency_network',
    lookalike: 'Kubernetes control plane is running at https://10.0.0.1:6443',
  },
  {
    what: 'kubectl without a kubeconfig (its localhost:8080 default)',
    from: 'https://kubernetes.io/docs/tasks/access-application-cluster/configure-access-multiple-clusters/',
    line: 'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
    rule: 'deploy/no-kubeconfig',
    category: 'config_yaml',
    lookalike: 'Starting to serve on 127.0.0.1:8080',
  },
  {
    what: 'Helm unable to reach the cluster',
    from: 'https://helm.sh/docs/faq/troubleshooting/',
    line: 'Error: Kubernetes cluster unreachable: Get "https://10.0.0.1:6443/version": dial tcp 10.0.0.1:6443: i/o timeout',
    rule: 'deploy/unreachable',
    category: 'dependency_network',
    lookalike: 'Release "web" has been upgraded. Happy Helming!',
  },
  {
    what: 'a Helm template that fails to render',
    from: 'https://helm.sh/docs/chart_template_guide/debugging/',
    line: 'Error: INSTALLATION FAILED: template: web/templates/deployment.yaml:12:20: executing "web/templates/deployment.yaml" at <.Values.image.tag>: nil pointer evaluating interface {}.tag',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike:
      'walk.go:75: found symbolic link in path: /charts/web/templates/common resolves to /charts/common',
  },
  {
    what: "Helm's `required` value missing",
    from: 'https://helm.sh/docs/howto/charts_tips_and_tricks/#using-the-required-function',
    line: 'Error: INSTALLATION FAILED: execution error at (web/templates/secret.yaml:7:21): A valid .Values.password entry required!',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: 'NOTES:',
  },
  {
    what: 'helm lint rejecting a chart',
    from: 'https://helm.sh/docs/helm/helm_lint/',
    line: 'Error: 1 chart(s) linted, 1 chart(s) failed',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: '1 chart(s) linted, 0 chart(s) failed',
  },
  {
    what: 'Helm release locked by an interrupted operation',
    from: 'https://github.com/helm/helm/blob/main/pkg/action/action.go',
    line: 'Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: 'STATUS: deployed',
  },
  {
    what: 'Helm refusing to adopt an object it does not own',
    from: 'https://github.com/helm/helm/blob/main/pkg/action/validate.go',
    line: 'Error: INSTALLATION FAILED: rendered manifests contain a resource that already exists. Unable to continue with install: Service "web" in namespace "default" exists and cannot be imported into the current release: invalid ownership metadata',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: 'service/web unchanged',
  },
  // ---- Terraform ----
  {
    what: 'Terraform HCL that does not parse',
    from: 'https://github.com/hashicorp/hcl/blob/main/hclsyntax/parser.go',
    line: '│ Error: Argument or block definition required',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: 'Success! The configuration is valid.',
  },
  {
    what: 'Terraform AWS provider without credentials',
    from: 'https://registry.terraform.io/providers/hashicorp/aws/latest/docs#authentication-and-configuration',
    line: '│ Error: error configuring Terraform AWS Provider: no valid credential sources for Terraform AWS Provider found.',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: '- Installing hashicorp/aws v5.49.0...',
  },
  {
    what: "Terraform's state locked by another run",
    from: 'https://developer.hashicorp.com/terraform/language/state/locking',
    line: '│ Error: Error acquiring the state lock',
    rule: 'deploy/terraform-config',
    categoryRule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: 'Acquiring state lock. This may take a few moments...',
  },
  {
    what: 'Terraform run without `terraform init`',
    from: 'https://developer.hashicorp.com/terraform/cli/commands/init',
    line: '│ Error: Backend initialization required, please run "terraform init"',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: 'Initializing the backend...',
  },
  {
    what: 'Terraform Google provider without credentials',
    from: 'https://registry.terraform.io/providers/hashicorp/google/latest/docs/guides/provider_reference#authentication',
    line: "│ Error: Attempted to load application default credentials since neither `credentials` nor `access_token` was set in the provider block.  No credentials loaded. To use your gcloud credentials, run 'gcloud auth application-default login'",
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: '- Installing hashicorp/google v5.30.0...',
  },
  {
    what: 'HCP Terraform without an API token',
    from: 'https://developer.hashicorp.com/terraform/cli/commands/login',
    line: '│ Error: Required token could not be found',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: 'Initializing HCP Terraform...',
  },
  // ---- Ansible ----
  {
    what: 'Ansible host unreachable',
    from: 'https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_error_handling.html#ignoring-unreachable-host-errors',
    line: 'fatal: [web1]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh: ssh: connect to host 10.0.0.5 port 22: Connection timed out", "unreachable": true}',
    rule: 'deploy/unreachable',
    category: 'dependency_network',
    lookalike:
      'web1                       : ok=12   changed=3    unreachable=0    failed=0    skipped=1    rescued=0    ignored=0',
  },
  {
    what: 'Ansible SSH key refused',
    from: 'https://docs.ansible.com/ansible/latest/inventory_guide/connection_details.html',
    line: 'fatal: [web1]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh: deploy@10.0.0.5: Permission denied (publickey).", "unreachable": true}',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: 'TASK [Gathering Facts] *********************************************************',
  },
  {
    what: 'Ansible vault without its password',
    from: 'https://docs.ansible.com/ansible/latest/vault_guide/vault_using_encrypted_content.html',
    line: 'ERROR! Attempting to decrypt but no vault secrets found',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: 'ok: [web1] => (item=vault.yml)',
  },
  {
    what: 'Ansible playbook YAML that does not parse',
    from: 'https://github.com/ansible/ansible/blob/devel/lib/ansible/parsing/yaml/loader.py',
    line: 'ERROR! Syntax Error while loading YAML.',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: '[WARNING]: Could not match supplied host pattern, ignoring: web',
  },
  {
    what: 'Ansible role not found',
    from: 'https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_reuse_roles.html#storing-and-finding-roles',
    line: "ERROR! the role 'nginx' was not found in /work/roles:/root/.ansible/roles:/usr/share/ansible/roles:/etc/ansible/roles",
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: '- nginx (1.2.0) was installed successfully',
  },
  {
    what: 'Ansible task keyword at play level',
    from: 'https://github.com/ansible/ansible/blob/devel/lib/ansible/playbook/base.py',
    line: "ERROR! 'apt' is not a valid attribute for a Play",
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: 'PLAY [web] *********************************************************************',
  },
  // ---- cloud CLIs and deploy platforms ----
  {
    what: 'gcloud refused by IAM',
    from: 'https://cloud.google.com/run/docs/reference/iam/roles',
    line: "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'run.services.update' denied on resource 'namespaces/acme/services/web' (or resource may not exist).",
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike:
      'Deploying container to Cloud Run service [web] in project [acme] region [us-central1]',
  },
  {
    what: 'gcloud auth with an unreadable key',
    from: 'https://cloud.google.com/sdk/gcloud/reference/auth/activate-service-account',
    line: 'ERROR: (gcloud.auth.activate-service-account) Could not read json file key.json: Expecting value: line 1 column 1 (char 0)',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: 'Activated service account credentials for: [deployer@acme.iam.gserviceaccount.com]',
  },
  {
    what: 'Azure CLI not logged in',
    from: 'https://github.com/Azure/azure-cli/blob/dev/src/azure-cli-core/azure/cli/core/_profile.py',
    line: "ERROR: Please run 'az login' to setup account.",
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: '+ az login --service-principal -u *** -p *** --tenant ***',
  },
  {
    what: 'Azure RBAC denying an action',
    from: 'https://learn.microsoft.com/azure/role-based-access-control/troubleshooting',
    line: "ERROR: (AuthorizationFailed) The client 'abc' with object id 'abc' does not have authorization to perform action 'Microsoft.Web/sites/write' over scope '/subscriptions/x' or the scope is invalid.",
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: "Command group 'webapp' is in preview and under development.",
  },
  {
    what: 'Serverless Framework without AWS credentials',
    from: 'https://github.com/serverless/serverless/blob/main/lib/plugins/aws/provider.js',
    line: 'Error: AWS provider credentials not found. Learn how to set up AWS provider credentials in our docs here: <http://slss.io/aws-creds-setup>.',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: '✔ Service deployed to stack web-dev (112s)',
  },
  {
    what: 'Firebase CLI without a token',
    from: 'https://github.com/firebase/firebase-tools/blob/master/src/auth.ts',
    line: 'Error: Failed to authenticate, have you run firebase login?',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: '✔  Deploy complete!',
  },
  {
    what: 'Firebase CLI outside a project',
    from: 'https://github.com/firebase/firebase-tools/blob/master/src/config.ts',
    line: 'Error: Not in a Firebase app directory (could not locate firebase.json)',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: 'i  deploying hosting',
  },
  {
    what: 'flyctl without a token',
    from: 'https://fly.io/docs/flyctl/auth-login/',
    line: "Error: No access token available. Please login with 'flyctl auth login'",
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: '+ flyctl deploy --remote-only',
  },
  {
    what: 'Vercel CLI without a token',
    from: 'https://vercel.com/docs/cli/login',
    line: 'Error: No existing credentials found. Please run `vercel login` or pass "--token"',
    rule: 'deploy/credentials',
    category: 'permission_auth',
    lookalike: '+ vercel deploy --prod --token=***',
  },
  {
    what: 'CloudFormation rejecting a template',
    from: 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/troubleshooting.html',
    line: 'An error occurred (ValidationError) when calling the CreateStack operation: Template format error: YAML not well-formed. (line 23, column 21)',
    rule: 'deploy/manifest-rejected',
    category: 'config_yaml',
    lookalike: 'Waiting for changeset to be created..',
  },
  {
    what: 'an AWS CLI waiter giving up on a rollout',
    from: 'https://docs.aws.amazon.com/cli/latest/reference/ecs/wait/services-stable.html',
    line: 'Waiter ServicesStable failed: Max attempts exceeded',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: '+ aws ecs wait services-stable --cluster prod --services web',
  },
  // ---- database migrations ----
  {
    what: 'Flyway migration failed',
    from: 'https://documentation.red-gate.com/fd/migrate-184127460.html',
    line: 'ERROR: Migration of schema "public" to version "2 - add index" failed! Changes successfully rolled back.',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike:
      'Successfully applied 2 migrations to schema "public", now at version v2 (execution time 00:00.045s)',
  },
  {
    what: 'Liquibase changeset failed',
    from: 'https://docs.liquibase.com/commands/update/update.html',
    line: 'liquibase.exception.MigrationFailedException: Migration failed for changeset db/changelog.xml::1::ci:',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: "Liquibase command 'update' was executed successfully.",
  },
  {
    what: "Alembic's FAILED: (not a failing test)",
    from: 'https://github.com/sqlalchemy/alembic/blob/main/alembic/util/messaging.py',
    line: '  FAILED: Target database is not up to date.',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: 'INFO  [alembic.runtime.migration] Running upgrade 1a2b3c -> 4d5e6f, add index',
  },
  {
    what: 'Rails pending migrations',
    from: 'https://guides.rubyonrails.org/active_record_migrations.html',
    line: 'ActiveRecord::PendingMigrationError: Migrations are pending. To resolve this issue, run: bin/rails db:migrate RAILS_ENV=test',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: '== 20240501100000 AddIndexToUsers: migrated (0.0123s) ==========================',
  },
  {
    what: 'Prisma Migrate P3xxx',
    from: 'https://www.prisma.io/docs/orm/reference/error-reference#p3009',
    line: 'Error: P3009: migrate found failed migrations in the target database, new migrations will not be applied.',
    rule: 'deploy/rollout-or-lock',
    category: 'script_error',
    lookalike: 'All migrations have been successfully applied.',
  },
  {
    what: "Ansible's failed loop item (`fatal: [host]: FAILED!` is the generic error)",
    from: 'https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_loops.html',
    line: 'failed: [web1] (item=/etc/app.conf) => {"ansible_loop_var": "item", "changed": false, "item": "/etc/app.conf", "msg": "Destination directory /etc/app does not exist"}',
    rule: 'deploy/ansible-item-failed',
    category: 'script_error',
  },
];

describe('deploy rules', () => {
  itClassifiesFamilyLines(deployFamily, { documented: DOCUMENTED });
});

describe('deploy advice', () => {
  itGivesFamilyAdvice(deployFamily, DOCUMENTED, [
    { advice: 'deploy/state-locked', what: "Terraform's state locked by another run" },
    {
      advice: 'deploy/helm-release-pending',
      what: 'Helm release locked by an interrupted operation',
    },
    { advice: 'deploy/rollout-not-ready', what: 'kubectl rollout status giving up' },
    { advice: 'deploy/permission-missing', what: 'gcloud refused by IAM' },
    { advice: 'deploy/host-unreachable', what: 'Ansible host unreachable' },
  ]);
});

describe('deploy: lines', () => {
  it('reads an unreachable cluster behind the validation wrapper as the network', () => {
    const line =
      'error: error validating "full.yaml": error validating data: failed to download openapi: Get "https://10.0.0.1:6443/openapi/v2?timeout=32s": dial tcp 10.0.0.1:6443: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false';
    expect(classifyLine(line).category).toBe('dependency_network');
  });
});

describe('deploy: whole logs through the analyser', () => {
  it('calls a Terraform plan without AWS credentials a permission failure', () => {
    // https://registry.terraform.io/providers/hashicorp/aws/latest/docs#authentication-and-configuration
    const log = [
      '$ terraform plan -out planfile',
      'Acquiring state lock. This may take a few moments...',
      '╷',
      '│ Error: error configuring Terraform AWS Provider: no valid credential sources for Terraform AWS Provider found.',
      '│ ',
      '│ Please see https://registry.terraform.io/providers/hashicorp/aws',
      '│ for more information about providing credentials.',
      '│ ',
      '│ Error: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, request canceled, context deadline exceeded',
      '│ ',
      '╵',
      'Releasing state lock. This may take a few moments...',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'permission_auth', 'no valid credential sources');
  });

  it('calls an Ansible host that cannot be reached a network failure', () => {
    // https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_error_handling.html
    const log = [
      '$ ansible-playbook -i inventory site.yml',
      '',
      'PLAY [web] *********************************************************************',
      '',
      'TASK [Gathering Facts] *********************************************************',
      'fatal: [web1]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh: ssh: connect to host 10.0.0.5 port 22: Connection timed out", "unreachable": true}',
      '',
      'PLAY RECAP *********************************************************************',
      'web1                       : ok=0    changed=0    unreachable=1    failed=0    skipped=0    rescued=0    ignored=0',
      'ERROR: Job failed: exit code 4',
    ];
    expectDiagnosis(log, 'dependency_network');
  });

  it('calls a kubectl apply denied by RBAC a permission failure', () => {
    // https://kubernetes.io/docs/reference/access-authn-authz/rbac/
    const log = [
      '$ kubectl apply -f k8s/',
      'configmap/web-config unchanged',
      'Error from server (Forbidden): error when applying patch:',
      'deployments.apps "web" is forbidden: User "system:serviceaccount:ci:deployer" cannot patch resource "deployments" in API group "apps" in the namespace "prod"',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'permission_auth');
  });

  it("calls Alembic's `FAILED:` a migration problem, not a failing test", () => {
    // https://github.com/sqlalchemy/alembic/blob/main/alembic/util/messaging.py
    const log = [
      '$ alembic revision --autogenerate -m "add index"',
      'INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.',
      'INFO  [alembic.runtime.migration] Will assume transactional DDL.',
      'ERROR [alembic.util.messaging] Target database is not up to date.',
      '  FAILED: Target database is not up to date.',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'script_error');
  });

  it('calls a Helm template that fails to render a configuration problem', () => {
    // https://helm.sh/docs/chart_template_guide/debugging/
    const log = [
      '+ helm upgrade --install web ./charts/web --namespace prod --wait',
      'Error: UPGRADE FAILED: template: web/templates/deployment.yaml:12:20: executing "web/templates/deployment.yaml" at <.Values.image.tag>: nil pointer evaluating interface {}.tag',
      'Error: Process completed with exit code 1.',
    ];
    expectDiagnosis(log, 'config_yaml');
  });
});
