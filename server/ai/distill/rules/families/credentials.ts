/**
 * Credentials missing or refused, and permissions the job lacks.
 */
import { defineFamily } from '../rule.ts';

/** Credentials missing or refused, and permissions the job lacks. */
export const credentialsFamily = defineFamily({
  name: 'credentials',
  // prettier-ignore
  hints: [
    'err', 'fail', 'exception', 'denied', 'forbidden', 'unauthorised', 'unauthorized', 'eacces',
    'not found', 'cannot', "can't", 'could not', 'unable', 'invalid', 'missing', 'not allowed',
    'does not exist', 'signaturedoesnotmatch', 'expiredtoken', 'dubious', 'unsafe repository',
    'dubious ownership', 'requested url', 'credential', 'expired', 'not accessible', 'not valid',
    'need auth', 'logged in', 'hook declined', 'refusing to allow', 'aadsts',
    'authorized to perform', 'terminal is required', 'password is required', 'no tty present',
    'incorrect password', 'set the gh_token', 'are too open', 'load key',
    'workload_identity_provider', 'permission to push', 'with --password-stdin',
    'no password supplied',
  ],
  rules: {
    // Zero-shot (config-auth): credentials refused or missing, where the tools' words hold none of
    // the generic rules' phrases. AWS IAM denying an action (`User: arn:aws:iam::1:user/ci is not
    // authorized to perform: ecr:GetAuthorizationToken on resource: *`,
    // https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html), Python
    // urllib's 401/403 (`urllib.error.HTTPError: HTTP Error 403: Forbidden`,
    // https://github.com/python/cpython/blob/main/Lib/urllib/error.py), Go's SSH client refused by
    // the host (`ssh: handshake failed: ssh: unable to authenticate, attempted methods [none
    // publickey], no supported methods remain`,
    // https://github.com/golang/crypto/blob/master/ssh/client_auth.go: deploy actions and
    // Terraform's provisioners use it), sudo without a password in CI (`sudo: a terminal is
    // required to read the password; …`, `sudo: a password is required`,
    // https://github.com/sudo-project/sudo/blob/main/src/tgetpass.c), GitLab refusing a clone or
    // fetch of a project the job token may not read (`remote: The project you were looking for
    // could not be found or you don't have permission to view it.`,
    // https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/git_access.rb; GitLab says "not
    // found" on purpose rather than "forbidden"), and the GitHub CLI without a token (`gh: To use
    // GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.`,
    // https://cli.github.com/manual/gh_help_environment), .NET's HttpClient refused by a feed or
    // API (`Response status code does not indicate success: 401 (Unauthorized).`, as `dotnet nuget
    // push` prints it,
    // https://github.com/dotnet/runtime/blob/main/src/libraries/System.Net.Http/src/Resources/Strings.resx),
    // and OpenSSH refusing a deploy key its secret holds badly (`Load key "/root/.ssh/id_rsa":
    // invalid format`, `Permissions 0644 for '…' are too open.`,
    // https://github.com/openssh/openssh-portable/blob/master/authfile.c); azure/login without the
    // secrets it needs (`Not all values are present. Ensure 'client-id' and 'tenant-id' are
    // supplied.`, https://github.com/Azure/login#readme), Terraform's S3 backend without AWS
    // credentials
    // (https://developer.hashicorp.com/terraform/language/backend/s3#credentials-and-shared-configuration)
    // and Azure Repos refusing a repository the pipeline may not read (`TF401019: … does not exist
    // or you do not have permissions …`,
    // https://learn.microsoft.com/azure/devops/pipelines/repos/multi-repo-checkout), the Vercel CLI
    // with a token it refuses (https://vercel.com/docs/cli/global-options#token),
    // google-github-actions/auth without its secrets (`the GitHub Action workflow must specify
    // exactly one of "workload_identity_provider" or "credentials_json"!`,
    // https://github.com/google-github-actions/auth#inputs; secrets are not passed to workflows
    // from forks) and RubyGems refusing a push by a non-owner
    // (https://guides.rubygems.org/publishing/); appleboy/ssh-action and scp-action with an empty
    // key secret (`Error: can't connect without a private SSH key or password`,
    // https://github.com/appleboy/drone-ssh/blob/master/plugin.go); `docker login` given an empty
    // username secret (`Must provide --username with --password-stdin`,
    // https://github.com/docker/cli/blob/master/cli/command/registry/login.go); and PostgreSQL
    // clients without a password (pgjdbc's `The server requested SCRAM-based authentication, but no
    // password was provided.`,
    // https://github.com/pgjdbc/pgjdbc/blob/master/pgjdbc/src/main/resources/org/postgresql/translation/messages.pot;
    // libpq's `fe_sendauth: no password supplied`,
    // https://www.postgresql.org/docs/current/libpq-connect.html).
    'tool-credentials': {
      re: /\bis not authorized to perform: [\w-]+:[\w*]+|\bHTTP Error 40[13]: (?:Forbidden|Unauthorized)\b|\bssh: unable to authenticate, attempted methods\b|^sudo: (?:a terminal is required to read the password|a password is required|no tty present and no askpass program specified|\d+ incorrect password attempts?)\b|(?:^|GitLab: |remote: |ERROR: )The project you were looking for could not be found\b|\bTo use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable\b|\bResponse status code does not indicate success: 40[13] \(|^Permissions 0?[0-7]{3,4} for '[^']+' are too open\.|^Load key "[^"]+": (?:invalid format|bad permissions|error in libcrypto)\b|\bNot all values are present\. Ensure 'client-id' and 'tenant-id' are supplied\b|\bno valid credential sources for S3 Backend found\b|\bTF401019: The Git repository with name or identifier \S+ does not exist or you do not have permissions\b|\bThe specified token is not valid\. Use `vercel login`|\bmust specify exactly one of "workload_identity_provider" or "credentials_json"|\bYou do not have permission to push to this gem\b|\bcan't connect without a private SSH key or password\b|\bMust provide --username with --password-stdin\b|\bThe server requested (?:SCRAM-based|password-based) authentication, but no password was provided\b|\bfe_sendauth: no password supplied\b/,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
    // Zero-shot (deps): credentials missing or refused, in the words the tools document. Before
    // dependencies/library-or-fetch in precedence, so git's `unable to access '…': The requested
    // URL returned error: 403` reads as an auth failure, not a download one. GitHub's API refusing
    // the job's token
    // (https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api) and a push
    // of workflow files or to a protected branch
    // (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/troubleshooting-rules),
    // npm's ENEEDAUTH/EOTP and a 404 on publish
    // (https://docs.npmjs.com/cli/v10/using-npm/registry), pnpm's FETCH_401/403
    // (https://pnpm.io/errors), git hosting refusing passwords, hosts and pushes, twine and PyPI
    // trusted publishing (https://docs.pypi.org/trusted-publishers/troubleshooting/), `docker
    // login` without a password in CI, a registry's `denied: denied` and ECR's `no basic auth
    // credentials`, an action input naming a token left empty (`Input required and not supplied:
    // token`, https://github.com/actions/toolkit/blob/main/packages/core/src/core.ts: a secret not
    // passed on, e.g. to a fork's pull request).
    'token-refused': {
      re: /(?:^|: )Resource not accessible by (?:integration|personal access token)\b|\bMust have admin rights to Repository\b|refusing to allow (?:a GitHub App|an OAuth App|a Personal Access Token) to create or update workflow|\bprotected branch hook declined\b|\bGH006: Protected branch update failed\b|\bnpm (?:ERR!|error) code (?:ENEEDAUTH|EOTP)\b|\bnpm (?:ERR!|error) need auth\b|\bThis command requires you to be logged in\b|\bnpm (?:ERR!|error) 404 Not Found - PUT |\bUnable to authenticate, need: |^\s*\[?ERR_PNPM_FETCH_40[13]\b|\bInvalid username or token\b|\bSupport for password authentication was removed\b|\bcould not read Password for\b|^Host key verification failed\.|\bYou are not allowed to (?:push|download) code\b|\bInvalid or non-existent authentication information\b|\bTrusted publishing exchange failure\b|\bCannot perform an interactive login from a non TTY device\b|\bdenied: denied\b|^denied: .*\bpermission\b|\bno basic auth credentials\b|\bInput required and not supplied: [\w-]*(?:token|TOKEN|Token|password|PASSWORD|Password|secret|SECRET|Secret|credentials|CREDENTIALS|api[-_]?key|API_KEY)\b|The requested URL returned error: 40[13]\b/,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
    // Zero-shot (deps): cloud credentials missing or refused: aws-actions/configure-aws-credentials
    // (https://github.com/aws-actions/configure-aws-credentials#oidc), the AWS CLI's `An error
    // occurred (AccessDenied) when calling …` and STS token errors
    // (https://docs.aws.amazon.com/cli/latest/userguide/cli-chap-troubleshooting.html), a job
    // without `id-token: write` asking for an OIDC token, gcloud without an account and Google's
    // DefaultCredentialsError (https://cloud.google.com/docs/authentication/troubleshoot-adc), and
    // Entra ID's AADSTS codes
    // (https://learn.microsoft.com/entra/identity-platform/reference-error-codes).
    cloud: {
      re: /\bCredentials could not be loaded\b|\bCould not load credentials from any providers\b|\bAn error occurred \((?:AccessDenied(?:Exception)?|UnauthorizedOperation|UnauthorizedAccess|UnrecognizedClientException|InvalidClientTokenId|AuthFailure|AuthorizationError)\) when calling\b|\bThe security token included in the request is (?:invalid|expired)\b|\bUnable to get ACTIONS_ID_TOKEN_REQUEST_URL\b|\bYou do not currently have an active account selected\b|\bDefaultCredentialsError\b|\bAADSTS\d{5,}\b/,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
    // Git refusing a checkout owned by another user (safe.directory).
    'dubious-ownership': {
      re: /\bunsafe repository \(|detected dubious ownership in repository/,
      score: 91,
      kind: 'error',
      category: 'permission_auth',
    },
    // Permission / auth in other words: git hosting refusing a push, HTTP 401/403 as curl, Python
    // requests and npm (E401/E403) report them, and as actions report an API call's status
    // (softprops/action-gh-release's `⚠️ GitHub release failed with status: 403`,
    // https://github.com/softprops/action-gh-release/blob/master/src/github.ts).
    'http-401-403': {
      re: /\bPermission to \S+ denied to\b|The requested URL returned error: 40[13]\b|\b40[13] Client Error\b|\bnpm (?:ERR!|error) code E40[13]\b|\bHTTP(?:\/[\d.]+)? 40[13]\b|\bfailed with status:? 40[13]\b/,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
    // Permission / auth.
    'permission-denied': {
      re: /\b(?:Permission denied|EACCES|EPERM|access denied|java\.nio\.file\.AccessDeniedException|403 Forbidden|401 Unauthorized|HTTP (?:Basic: )?Access denied|authentication (?:failed|required)|unauthorized: |denied: (?:requested access|access forbidden)|could not read Username|Invalid (?:username or password|credentials|token)|not authorized|insufficient_scope|Bad credentials|status code:? 40[13]\b|Unauthorized \(401\)|Forbidden \(403\)|\b40[13] (?:Forbidden|Unauthorized)\b|pull access denied|requires authentication)/i,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
    // Cloud credentials missing or rejected (AWS-style SDKs and CLIs).
    // `\bExpiredToken`: AWS's error code, not a test named `TestJwtValidation_ExpiredToken`.
    'aws-keys': {
      re: /Access key (?:cannot be null|is missing)|Unable to locate credentials|NoCredentialProviders|InvalidAccessKeyId|SignatureDoesNotMatch|\bExpiredToken\b|InvalidClientTokenId/,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
  },
});
