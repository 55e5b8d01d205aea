import { describe, it } from 'vitest';
import { expectDiagnosis } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { credentialsFamily } from './credentials.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  // ---- Credentials ----
  {
    what: 'AWS IAM denying an action',
    from: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html',
    line: 'An error occurred (AccessDeniedException) when calling the GetAuthorizationToken operation: User: arn:aws:iam::123456789012:user/ci is not authorized to perform: ecr:GetAuthorizationToken on resource: *',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    // A passing test whose name says the same.
    lookalike: 'PASSED tests/test_iam.py::test_user_is_not_authorized_to_perform_admin_actions',
  },
  {
    what: "Python urllib's 403",
    from: 'https://github.com/python/cpython/blob/main/Lib/urllib/error.py',
    line: 'urllib.error.HTTPError: HTTP Error 403: Forbidden',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: 'urllib.error.HTTPError: HTTP Error 404: Not Found',
  },
  {
    what: "Go's SSH client refused by the host",
    from: 'https://github.com/golang/crypto/blob/master/ssh/client_auth.go',
    line: 'ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey], no supported methods remain',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    // A host that cannot be reached is the network.
    lookalike: 'dial tcp 10.0.0.5:22: connect: connection refused',
  },
  {
    what: 'sudo without a password in CI',
    from: 'https://github.com/sudo-project/sudo/blob/main/src/tgetpass.c',
    line: 'sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    // A warning sudo prints in containers, after which the command runs.
    lookalike: 'sudo: unable to resolve host runner-1: Name or service not known',
  },
  {
    what: 'GitLab refusing a project the job may not read',
    from: 'https://docs.gitlab.com/ci/jobs/ci_job_token/#control-job-token-access-to-your-project',
    line: "remote: The project you were looking for could not be found or you don't have permission to view it.",
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    // A web application's own message, asserted by its tests.
    lookalike:
      'expected flash[:alert] to eql "The project you were looking for could not be found."',
  },
  {
    what: 'the GitHub CLI without a token',
    from: 'https://cli.github.com/manual/gh_help_environment',
    line: 'gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable. Example:',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: '+ gh release create v1.2.0 --generate-notes',
  },
  {
    what: '.NET HttpClient refused by a feed',
    from: 'https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/Resources/Strings.resx',
    line: 'error: Response status code does not indicate success: 401 (Unauthorized).',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    // A package that is not on the feed is a dependency problem.
    lookalike: 'error: Response status code does not indicate success: 404 (Not Found).',
  },
  {
    what: 'OpenSSH refusing a malformed deploy key',
    from: 'https://github.com/openssh/openssh-portable/blob/master/authfile.c',
    line: 'Load key "/root/.ssh/id_rsa": invalid format',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: "Warning: Permanently added 'github.com' (ED25519) to the list of known hosts.",
  },
  {
    what: 'OpenSSH refusing a deploy key readable by others',
    from: 'https://github.com/openssh/openssh-portable/blob/master/authfile.c',
    line: "Permissions 0644 for '/root/.ssh/id_rsa' are too open.",
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: '+ chmod 600 ~/.ssh/id_rsa',
  },
  {
    what: 'azure/login without the secrets it needs',
    from: 'https://github.com/Azure/login#readme',
    line: "Error: Login failed with Error: Using auth-type: SERVICE_PRINCIPAL. Not all values are present. Ensure 'client-id' and 'tenant-id' are supplied.. Double check if the 'auth-type' is correct. Refer to https://github.com/Azure/login#readme for more information.",
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: '##[group]Run azure/login@v2',
  },
  {
    what: "Terraform's S3 backend without AWS credentials",
    from: 'https://developer.hashicorp.com/terraform/language/backend/s3#credentials-and-shared-configuration',
    line: '│ Error: error configuring S3 Backend: no valid credential sources for S3 Backend found.',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: 'Successfully configured the backend "s3"! Terraform will automatically',
  },
  {
    what: 'Azure Repos refusing a repository the pipeline may not read',
    from: 'https://learn.microsoft.com/azure/devops/pipelines/repos/multi-repo-checkout',
    line: 'remote: TF401019: The Git repository with name or identifier app does not exist or you do not have permissions for the operation you are attempting.',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: 'Syncing repository: app (Git)',
  },
  {
    what: 'the Vercel CLI with a token it refuses',
    from: 'https://vercel.com/docs/cli/global-options#token',
    line: 'Error: The specified token is not valid. Use `vercel login` to generate a new token.',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    // AWS's paging error says the same of a page token, which is no credential.
    lookalike:
      'An error occurred (InvalidNextTokenException) when calling the ListDocuments operation: The specified token is not valid.',
  },
  {
    what: 'google-github-actions/auth without its secrets',
    from: 'https://github.com/google-github-actions/auth#inputs',
    line: 'Error: google-github-actions/auth failed with: the GitHub Action workflow must specify exactly one of "workload_identity_provider" or "credentials_json"! If you are specifying input values via GitHub secrets, ensure the secret is being injected into the environment.',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: '##[group]Run google-github-actions/auth@v2',
  },
  {
    what: 'RubyGems refusing a push by a non-owner',
    from: 'https://guides.rubygems.org/publishing/',
    line: 'You do not have permission to push to this gem. Ask an owner to add you with: gem owner app --add ci@example.com',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
    lookalike: 'Pushing gem to https://rubygems.org...',
  },
  {
    what: 'AWS STS token expired',
    from: 'https://docs.aws.amazon.com/cli/latest/userguide/cli-chap-troubleshooting.html',
    line: 'An error occurred (ExpiredToken) when calling the AssumeRole operation: The security token included in the request is expired',
    rule: 'credentials/cloud',
    category: 'permission_auth',
    lookalike: '    "Expiration": "2024-05-01T11:00:00+00:00"',
  },
  {
    what: 'AWS credentials error code, not a Go test named after it',
    from: 'https://docs.aws.amazon.com/STS/latest/APIReference/CommonErrors.html',
    line: 'ExpiredToken: The provided token has expired.',
    rule: 'credentials/aws-keys',
    category: 'permission_auth',
    lookalike: '--- FAIL: TestJwtValidation_ExpiredToken (1.16s)',
  },
  // ---- permission / auth ----
  {
    what: "GitHub API refusing the job's token",
    from: 'https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api',
    line: 'Error: Unhandled error: HttpError: Resource not accessible by integration',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: '  ✓ maps "Resource not accessible by integration" to a hint (3 ms)',
  },
  {
    what: 'git push refused after the remote denied the bot (HTTP 403)',
    from: 'https://docs.github.com/en/get-started/using-git/troubleshooting-connectivity-problems',
    line: "fatal: unable to access 'https://github.com/x/y/': The requested URL returned error: 403",
    rule: 'dependencies/library-or-fetch',
    categoryRule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: "Cloning into 'y'...",
  },
  {
    what: 'npm ENEEDAUTH',
    from: 'https://docs.npmjs.com/cli/v10/using-npm/registry',
    line: 'npm error code ENEEDAUTH',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike:
      'npm notice Publishing to https://registry.npmjs.org/ with tag latest and default access',
  },
  {
    what: 'pnpm FETCH_401',
    from: 'https://pnpm.io/errors',
    line: ' ERR_PNPM_FETCH_401  GET https://npm.pkg.github.com/@acme%2Fui: Unauthorized - 401',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: 'Lockfile is up to date, resolution step is skipped',
  },
  {
    what: 'aws-actions/configure-aws-credentials without credentials',
    from: 'https://github.com/aws-actions/configure-aws-credentials',
    line: 'Error: Credentials could not be loaded, please check your action inputs: Could not load credentials from any providers',
    rule: 'credentials/cloud',
    category: 'permission_auth',
    lookalike: 'Assuming role with OIDC',
  },
  {
    what: 'AWS CLI AccessDenied',
    from: 'https://docs.aws.amazon.com/cli/latest/userguide/cli-chap-troubleshooting.html',
    line: 'An error occurred (AccessDeniedException) when calling the GetSecretValue operation: User: arn:aws:sts::1:assumed-role/ci is not allowed',
    rule: 'credentials/cloud',
    category: 'permission_auth',
    lookalike: 'upload: dist/index.html to s3://bucket/index.html',
  },
  {
    what: 'an action input naming a token left empty (a secret not passed on)',
    from: 'https://github.com/actions/toolkit/blob/main/packages/core/src/core.ts',
    line: 'Error: Input required and not supplied: github_token',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: "##[warning]Unexpected input(s) 'token', valid inputs are ['path']",
  },
  {
    what: 'a GitHub App token pushing a workflow file',
    from: 'https://docs.github.com/en/apps/creating-github-apps/registering-a-github-app/choosing-permissions-for-a-github-app',
    line: ' ! [remote rejected] HEAD -> main (refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission)',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: ' * [new branch]      HEAD -> release',
  },
  {
    what: 'npm publish answered 404 (no rights to the scope)',
    from: 'https://docs.npmjs.com/cli/v10/using-npm/registry',
    line: 'npm error 404 Not Found - PUT https://registry.npmjs.org/@acme%2fui - Not found',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: 'npm notice 📦  @acme/ui@1.2.0',
  },
  {
    what: 'OIDC token requested without `id-token: write`',
    from: 'https://github.com/actions/toolkit/blob/main/packages/core/src/oidc-utils.ts',
    line: 'Error: Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable',
    rule: 'credentials/cloud',
    category: 'permission_auth',
    lookalike: 'Requesting OIDC token for audience sts.amazonaws.com',
  },
  {
    what: 'PyPI trusted publishing refused',
    from: 'https://docs.pypi.org/trusted-publishers/troubleshooting/',
    line: 'Trusted publishing exchange failure: Token request failed: the server refused the request for the following reasons:',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: 'Uploading distributions to https://upload.pypi.org/legacy/',
  },
  {
    what: 'docker login without its secret in CI',
    from: 'https://docs.docker.com/reference/cli/docker/login/',
    line: 'Error: Cannot perform an interactive login from a non TTY device',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
    lookalike: 'Login Succeeded',
  },
  {
    what: 'Entra ID refusing the service principal',
    from: 'https://learn.microsoft.com/entra/identity-platform/reference-error-codes',
    line: 'Error: AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
    rule: 'credentials/cloud',
    category: 'permission_auth',
    lookalike: 'Azure CLI login succeeds by using federated token.',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: 'the PostgreSQL JDBC driver given no password',
    from: 'https://github.com/ShivamKalia023/Gemini_Health/blob/aa5d657b1b00306ef002938f537dc49aee426de7/railway_logs.txt',
    line: 'Caused by: org.postgresql.util.PSQLException: The server requested SCRAM-based authentication, but no password was provided.',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
  },
  {
    what: '`docker login` with an empty username secret (gh run view --log prefix)',
    from: 'https://github.com/Aysooda-Hh/project-startup-namer/blob/1ef7bf01743612d5704b206489392024d16167e7/ci-log.txt',
    line: 'build-deploy\tLog in to Docker Hub\t2025-06-04T19:22:04.9303627Z Must provide --username with --password-stdin',
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
  },
  {
    what: "softprops/action-gh-release refused by the API: an HTTP status in the action's words",
    from: 'https://github.com/austinsonger/jellyfin-torrent/blob/6141c8e14f42dcbb4b2acdc85fcf615024abb670/job-logs.txt',
    line: '2026-01-17T23:04:37.8642052Z ⚠️ GitHub release failed with status: 403',
    rule: 'credentials/http-401-403',
    category: 'permission_auth',
  },
  {
    what: 'appleboy/ssh-action without its key secret',
    from: 'https://github.com/JCLEE94/safework/blob/41b88c60d05ec2d90f85047ff906f630d7c20809/0_deploy.txt',
    line: "2025-06-24T07:37:57.4544301Z 2025/06/24 07:37:57 Error: can't connect without a private SSH key or password",
    rule: 'credentials/tool-credentials',
    category: 'permission_auth',
  },
  {
    what: "Java's AccessDeniedException: the CI agent may not write its workspace",
    from: 'https://github.com/ardaozyaman/path_cicd/blob/f415e09f3eacbceb029699c8405663a10dc367cc/consoleOutput.txt',
    line: 'java.nio.file.AccessDeniedException: /var/jenkins_home/workspace/path_2_cicd',
    rule: 'credentials/permission-denied',
    category: 'permission_auth',
  },
  {
    what: "a registry refusing a push for a missing permission (Google's Artifact Registry)",
    from: 'https://github.com/Tejal1211/CyberStadium-AI/blob/991ffcd790ed166b0df1ffe9b9ecf2e84f4e0456/cloudbuild.log',
    line: 'denied: gcr.io repo does not exist. Creating on push requires the artifactregistry.repositories.createOnPush permission',
    rule: 'credentials/token-refused',
    category: 'permission_auth',
  },
  {
    what: "git's unsafe-repository refusal",
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/cv_45/fail.log',
    line: "2022-05-07T08:49:38.2847211Z fatal: unsafe repository ('/github/workspace' is owned by someone else)",
    rule: 'credentials/dubious-ownership',
    category: 'permission_auth',
  },
  {
    what: 'cloud credentials missing',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Java/iluwatar%40java-design-patterns/failed/565203161.log',
    line: '[wait] Failed to upload index.html (Access key cannot be null.). Trying again in 1 second.',
    rule: 'credentials/aws-keys',
    category: 'permission_auth',
  },
  {
    what: 'git push refused by the host',
    from: 'https://docs.github.com/en/authentication/troubleshooting-ssh/error-permission-denied-publickey',
    line: 'remote: Permission to octo-org/octo-repo.git denied to octocat.',
    rule: 'credentials/http-401-403',
    category: 'permission_auth',
  },
];

describe('credentials rules', () => {
  itClassifiesFamilyLines(credentialsFamily, { documented: DOCUMENTED, quoted: QUOTED });
});

describe('credentials: whole logs through the analyser', () => {
  it('calls an install step that needs sudo a permission problem', () => {
    // https://github.com/sudo-project/sudo/blob/main/src/tgetpass.c
    const log = [
      '$ sudo apt-get install -y libpq-dev',
      'sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper',
      'sudo: a password is required',
      'ERROR: Job failed: exit status 1',
    ];
    expectDiagnosis(log, 'permission_auth');
  });

  it('calls a clone of a project the job token may not read a permission problem', () => {
    // https://docs.gitlab.com/ci/jobs/ci_job_token/
    const log = [
      '$ git clone https://gitlab-ci-token:[MASKED]@gitlab.com/group/shared-config.git',
      "Cloning into 'shared-config'...",
      "remote: The project you were looking for could not be found or you don't have permission to view it.",
      "fatal: repository 'https://gitlab.com/group/shared-config.git/' not found",
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'permission_auth');
  });

  it('calls a push refused with HTTP 403 a permission failure', () => {
    // https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
    const log = [
      '$ git push origin HEAD:gh-pages',
      'remote: Permission to acme/site.git denied to github-actions[bot].',
      "fatal: unable to access 'https://github.com/acme/site/': The requested URL returned error: 403",
      'Error: Process completed with exit code 128.',
    ];
    expectDiagnosis(log, 'permission_auth');
  });
});
