import type { FailureKind, JobTemplate, ProjectKind, ToolKind } from './model.ts';

/** The simulated people: ten engineers and one project bot (api/trigger pipelines). */
export const USERS: readonly { username: string; name: string; bot?: boolean }[] = [
  { username: 'priya.raman', name: 'Priya Raman' },
  { username: 'mchen', name: 'Marcus Chen' },
  { username: 'salvarez', name: 'Sofia Alvarez' },
  { username: 'jmuller', name: 'Jonas Müller' },
  { username: 'aokafor', name: 'Aisha Okafor' },
  { username: 'loconnor', name: "Liam O'Connor" },
  { username: 'ytanaka', name: 'Yuki Tanaka' },
  { username: 'elindqvist', name: 'Emma Lindqvist' },
  { username: 'dvolkov', name: 'Dmitri Volkov' },
  { username: 'fzahra', name: 'Fatima Zahra' },
  { username: 'project_bot_deployer', name: 'Release Bot', bot: true },
];

/** A group under the top group, by relative path. */
export interface GroupSpec {
  /** Relative to the top group ('' = the top group itself). */
  path: string;
  name: string;
  description: string;
}

/** Subgroups of the top group, parents first. */
export const SUBGROUPS: readonly GroupSpec[] = [
  { path: 'platform', name: 'Platform', description: 'Core services and shared platform.' },
  { path: 'platform/infra', name: 'Infrastructure', description: 'Terraform, Helm and clusters.' },
  { path: 'web', name: 'Web', description: 'Customer-facing web apps and the design system.' },
  { path: 'data', name: 'Data', description: 'Pipelines, warehouse and ML.' },
];

/** A named project: relative group path, name, kind, description. */
export interface ProjectSpec {
  group: string;
  path: string;
  kind: ProjectKind;
  description: string;
}

/** The hand-named projects, in the order `projects: n` takes them. */
export const NAMED_PROJECTS: readonly ProjectSpec[] = [
  {
    group: 'platform',
    path: 'api-gateway',
    kind: 'go-service',
    description: 'Edge API gateway: routing, auth and rate limits.',
  },
  {
    group: 'platform',
    path: 'billing-service',
    kind: 'java-service',
    description: 'Invoices, subscriptions and payment reconciliation.',
  },
  { group: 'web', path: 'web-app', kind: 'frontend', description: 'The customer web app.' },
  {
    group: 'web',
    path: 'design-system',
    kind: 'frontend',
    description: 'Shared React components and tokens.',
  },
  {
    group: 'platform/infra',
    path: 'terraform-modules',
    kind: 'terraform',
    description: 'Terraform modules for every environment.',
  },
  {
    group: 'data',
    path: 'data-pipeline',
    kind: 'python-data',
    description: 'Event ingestion and warehouse loads.',
  },
  {
    group: 'data',
    path: 'ml-models',
    kind: 'python-data',
    description: 'Recommendation and fraud models.',
  },
  { group: '', path: 'mobile-app', kind: 'mobile', description: 'iOS and Android apps.' },
  { group: 'web', path: 'docs', kind: 'docs', description: 'Public developer documentation.' },
  {
    group: 'platform',
    path: 'auth-service',
    kind: 'go-service',
    description: 'OAuth 2.0 / OIDC identity provider.',
  },
  {
    group: 'platform',
    path: 'notifications',
    kind: 'node-service',
    description: 'Email, push and webhook delivery.',
  },
  {
    group: 'platform',
    path: 'search-indexer',
    kind: 'rust-service',
    description: 'Incremental full-text indexer.',
  },
  {
    group: 'platform/infra',
    path: 'helm-charts',
    kind: 'helm',
    description: 'Helm charts for all services.',
  },
];

/** The archived project (listed only without `archived=false`). */
export const ARCHIVED_PROJECT: ProjectSpec = {
  group: 'web',
  path: 'legacy-portal',
  kind: 'frontend',
  description: 'The old AngularJS portal. Archived.',
};

/** Top-level groups beside the top group, each with a subgroup and one project. */
export const SIBLING_GROUPS: readonly {
  path: string;
  name: string;
  description: string;
  subgroup: GroupSpec;
  project: ProjectSpec;
}[] = [
  {
    path: 'globex',
    name: 'Globex Labs',
    description: 'Research spin-off.',
    subgroup: { path: 'research', name: 'Research', description: 'Notebooks and experiments.' },
    project: {
      group: 'research',
      path: 'research-notebooks',
      kind: 'python-data',
      description: 'Shared notebooks.',
    },
  },
  {
    path: 'initech',
    name: 'Initech',
    description: 'Acquired company, being migrated.',
    subgroup: { path: 'finance', name: 'Finance', description: 'Finance systems.' },
    project: {
      group: 'finance',
      path: 'tps-reports',
      kind: 'java-service',
      description: 'TPS report generator.',
    },
  },
];

const DOMAINS = [
  'orders',
  'payments',
  'inventory',
  'catalog',
  'shipping',
  'pricing',
  'reviews',
  'accounts',
  'ledger',
  'fraud',
  'recommendations',
  'analytics',
  'reporting',
  'identity',
  'media',
  'checkout',
  'cart',
  'loyalty',
  'support',
  'chat',
  'feeds',
  'geo',
  'tax',
  'audit',
  'events',
  'webhooks',
  'scheduler',
  'exports',
  'imports',
  'gateway',
];
const SUFFIXES: readonly (readonly [string, ProjectKind])[] = [
  ['service', 'go-service'],
  ['api', 'node-service'],
  ['ui', 'frontend'],
  ['worker', 'java-service'],
  ['etl', 'python-data'],
  ['engine', 'rust-service'],
  ['infra', 'terraform'],
  ['docs', 'docs'],
];
const GENERATED_GROUPS = ['platform', 'web', 'data', 'platform/infra'];

/** The spec of the n-th generated project (beyond the named ones), unique by n. */
export function generatedProject(n: number): ProjectSpec {
  const domain = DOMAINS[n % DOMAINS.length] ?? 'misc';
  const [suffix, kind] = SUFFIXES[Math.floor(n / DOMAINS.length) % SUFFIXES.length] ?? [
    'service',
    'go-service' as const,
  ];
  const round = Math.floor(n / (DOMAINS.length * SUFFIXES.length));
  const path = `${domain}-${suffix}${round > 0 ? `-${round + 1}` : ''}`;
  const group = GENERATED_GROUPS[n % GENERATED_GROUPS.length] ?? 'platform';
  return { group, path, kind, description: `The ${domain} ${suffix}.` };
}

/** The CI configuration of each kind of project: jobs in stage order. */
export const TEMPLATES: Readonly<Record<ProjectKind, readonly JobTemplate[]>> = {
  'node-service': [
    { name: 'build', stage: 'build', tool: 'npm-build', seconds: [45, 160] },
    { name: 'unit-tests', stage: 'test', tool: 'jest', seconds: [60, 280], coverage: true },
    { name: 'integration-tests', stage: 'test', tool: 'jest', seconds: [120, 460] },
    {
      name: 'dependency-audit',
      stage: 'test',
      tool: 'npm-audit',
      seconds: [15, 40],
      allowFailure: true,
    },
    { name: 'eslint', stage: 'lint', tool: 'eslint', seconds: [20, 90] },
    { name: 'typecheck', stage: 'lint', tool: 'tsc', seconds: [30, 100] },
    {
      name: 'deploy-staging',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [40, 150],
      rule: 'default-branch',
    },
    {
      name: 'deploy-production',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [60, 200],
      rule: 'tags',
      manual: true,
    },
  ],
  frontend: [
    { name: 'build', stage: 'build', tool: 'npm-build', seconds: [60, 240] },
    { name: 'unit-tests', stage: 'test', tool: 'jest', seconds: [90, 340], coverage: true },
    { name: 'e2e-tests', stage: 'test', tool: 'jest', seconds: [180, 560] },
    {
      name: 'visual-regression',
      stage: 'test',
      tool: 'jest',
      seconds: [60, 200],
      allowFailure: true,
      rule: 'merge-requests',
    },
    { name: 'eslint', stage: 'lint', tool: 'eslint', seconds: [25, 110] },
    { name: 'typecheck', stage: 'lint', tool: 'tsc', seconds: [30, 120] },
    {
      name: 'review-app',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [30, 90],
      rule: 'merge-requests',
    },
    {
      name: 'deploy-staging',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [40, 150],
      rule: 'default-branch',
    },
    {
      name: 'deploy-production',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [60, 200],
      rule: 'tags',
      manual: true,
    },
  ],
  'go-service': [
    { name: 'go-build', stage: 'build', tool: 'go-build', seconds: [40, 150] },
    { name: 'docker-build', stage: 'build', tool: 'docker-build', seconds: [60, 240] },
    { name: 'go-test', stage: 'test', tool: 'go-test', seconds: [60, 300], coverage: true },
    {
      name: 'go-test-race',
      stage: 'test',
      tool: 'go-test',
      seconds: [120, 400],
      allowFailure: true,
    },
    { name: 'golangci-lint', stage: 'lint', tool: 'golangci-lint', seconds: [30, 120] },
    {
      name: 'deploy-staging',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [40, 150],
      rule: 'default-branch',
    },
    {
      name: 'deploy-production',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [60, 200],
      rule: 'tags',
      manual: true,
    },
  ],
  'rust-service': [
    { name: 'cargo-build', stage: 'build', tool: 'cargo-build', seconds: [120, 480] },
    { name: 'cargo-test', stage: 'test', tool: 'cargo-test', seconds: [150, 560], coverage: true },
    { name: 'clippy', stage: 'lint', tool: 'clippy', seconds: [90, 300] },
    {
      name: 'deploy-staging',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [40, 150],
      rule: 'default-branch',
    },
    { name: 'release-binaries', stage: 'deploy', tool: 'deploy', seconds: [60, 200], rule: 'tags' },
  ],
  'python-data': [
    { name: 'build-image', stage: 'build', tool: 'docker-build', seconds: [90, 380] },
    { name: 'pytest', stage: 'test', tool: 'pytest', seconds: [120, 640], coverage: true },
    { name: 'mypy', stage: 'test', tool: 'mypy', seconds: [40, 150], allowFailure: true },
    { name: 'ruff', stage: 'lint', tool: 'ruff', seconds: [10, 40] },
    {
      name: 'deploy-staging',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [40, 150],
      rule: 'default-branch',
    },
    {
      name: 'deploy-production',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [60, 200],
      rule: 'tags',
      manual: true,
    },
  ],
  'java-service': [
    { name: 'compile', stage: 'build', tool: 'maven-compile', seconds: [90, 300] },
    { name: 'unit-tests', stage: 'test', tool: 'maven-test', seconds: [180, 640], coverage: true },
    { name: 'integration-tests', stage: 'test', tool: 'maven-test', seconds: [300, 880] },
    { name: 'checkstyle', stage: 'lint', tool: 'checkstyle', seconds: [40, 120] },
    {
      name: 'deploy-staging',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [40, 150],
      rule: 'default-branch',
    },
    {
      name: 'deploy-production',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [60, 200],
      rule: 'tags',
      manual: true,
    },
  ],
  terraform: [
    { name: 'fmt', stage: 'validate', tool: 'terraform-fmt', seconds: [5, 20] },
    { name: 'validate', stage: 'validate', tool: 'terraform-validate', seconds: [20, 60] },
    {
      name: 'tflint',
      stage: 'validate',
      tool: 'terraform-validate',
      seconds: [15, 50],
      allowFailure: true,
    },
    { name: 'plan-staging', stage: 'plan', tool: 'terraform-plan', seconds: [40, 180] },
    {
      name: 'plan-production',
      stage: 'plan',
      tool: 'terraform-plan',
      seconds: [40, 180],
      rule: 'release',
    },
    {
      name: 'apply-staging',
      stage: 'apply',
      tool: 'terraform-apply',
      seconds: [60, 300],
      rule: 'default-branch',
    },
    {
      name: 'apply-production',
      stage: 'apply',
      tool: 'terraform-apply',
      seconds: [60, 300],
      rule: 'release',
      manual: true,
      allowFailure: true,
    },
  ],
  helm: [
    { name: 'helm-lint', stage: 'validate', tool: 'helm-lint', seconds: [10, 40] },
    { name: 'chart-testing', stage: 'test', tool: 'chart-testing', seconds: [120, 400] },
    {
      name: 'publish-charts',
      stage: 'publish',
      tool: 'deploy',
      seconds: [20, 60],
      rule: 'release',
    },
  ],
  docs: [
    { name: 'mkdocs-build', stage: 'build', tool: 'mkdocs', seconds: [40, 120] },
    {
      name: 'link-check',
      stage: 'test',
      tool: 'link-check',
      seconds: [30, 200],
      allowFailure: true,
    },
    { name: 'pages', stage: 'deploy', tool: 'deploy', seconds: [20, 60], rule: 'default-branch' },
  ],
  mobile: [
    { name: 'android-assemble', stage: 'build', tool: 'gradle', seconds: [300, 900] },
    { name: 'ios-build', stage: 'build', tool: 'xcode', seconds: [400, 1200] },
    { name: 'unit-tests', stage: 'test', tool: 'gradle', seconds: [200, 600], coverage: true },
    { name: 'detekt', stage: 'lint', tool: 'checkstyle', seconds: [60, 180] },
    {
      name: 'testflight',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [120, 400],
      rule: 'default-branch',
      manual: true,
      allowFailure: true,
    },
    {
      name: 'play-store-internal',
      stage: 'deploy',
      tool: 'deploy',
      seconds: [120, 400],
      rule: 'tags',
      manual: true,
    },
  ],
};

/** Ways each tool fails, by weight. */
export const FAILURES: Readonly<Record<ToolKind, readonly (readonly [FailureKind, number])[]>> = {
  'npm-build': [
    ['npm-eresolve', 4],
    ['tsc-error', 4],
    ['oom-killed', 1],
    ['network', 2],
  ],
  jest: [
    ['jest-assertion', 10],
    ['oom-killed', 1],
    ['timeout', 1],
    ['network', 1],
  ],
  'npm-audit': [['network', 1]],
  eslint: [['lint', 1]],
  tsc: [
    ['tsc-error', 6],
    ['oom-killed', 1],
  ],
  'go-build': [
    ['go-compile', 6],
    ['network', 2],
  ],
  'go-test': [
    ['go-test', 8],
    ['timeout', 1],
    ['oom-killed', 1],
  ],
  'golangci-lint': [['lint', 1]],
  'docker-build': [
    ['network', 3],
    ['oom-killed', 1],
  ],
  'cargo-build': [
    ['rust-compile', 6],
    ['oom-killed', 1],
    ['network', 1],
  ],
  'cargo-test': [
    ['rust-compile', 3],
    ['timeout', 1],
  ],
  clippy: [['lint', 1]],
  pytest: [
    ['pytest-assertion', 8],
    ['oom-killed', 2],
    ['timeout', 1],
  ],
  mypy: [['lint', 1]],
  ruff: [['lint', 1]],
  'maven-compile': [
    ['maven-dependency', 5],
    ['network', 2],
  ],
  'maven-test': [
    ['junit-assertion', 6],
    ['oom-killed', 1],
    ['timeout', 1],
  ],
  checkstyle: [['lint', 1]],
  'terraform-fmt': [['lint', 1]],
  'terraform-validate': [
    ['terraform-error', 3],
    ['lint', 1],
  ],
  'terraform-plan': [
    ['terraform-error', 3],
    ['network', 1],
  ],
  'terraform-apply': [
    ['terraform-error', 3],
    ['timeout', 1],
  ],
  'helm-lint': [['lint', 1]],
  'chart-testing': [
    ['rollout', 2],
    ['timeout', 1],
  ],
  mkdocs: [['network', 1]],
  'link-check': [['network', 1]],
  gradle: [
    ['maven-dependency', 2],
    ['junit-assertion', 3],
    ['oom-killed', 2],
    ['network', 1],
  ],
  xcode: [
    ['oom-killed', 1],
    ['timeout', 1],
    ['network', 1],
  ],
  deploy: [
    ['rollout', 3],
    ['network', 2],
    ['timeout', 1],
  ],
};

/** Docker image each tool runs in. */
export const IMAGES: Readonly<Record<ToolKind, string>> = {
  'npm-build': 'node:20.15-alpine',
  jest: 'node:20.15-alpine',
  'npm-audit': 'node:20.15-alpine',
  eslint: 'node:20.15-alpine',
  tsc: 'node:20.15-alpine',
  'go-build': 'golang:1.22',
  'go-test': 'golang:1.22',
  'golangci-lint': 'golangci/golangci-lint:v1.59',
  'docker-build': 'docker:26.1',
  'cargo-build': 'rust:1.79',
  'cargo-test': 'rust:1.79',
  clippy: 'rust:1.79',
  pytest: 'python:3.12-slim',
  mypy: 'python:3.12-slim',
  ruff: 'python:3.12-slim',
  'maven-compile': 'maven:3.9-eclipse-temurin-21',
  'maven-test': 'maven:3.9-eclipse-temurin-21',
  checkstyle: 'maven:3.9-eclipse-temurin-21',
  'terraform-fmt': 'hashicorp/terraform:1.8',
  'terraform-validate': 'hashicorp/terraform:1.8',
  'terraform-plan': 'hashicorp/terraform:1.8',
  'terraform-apply': 'hashicorp/terraform:1.8',
  'helm-lint': 'alpine/helm:3.15',
  'chart-testing': 'quay.io/helmpack/chart-testing:v3.11.0',
  mkdocs: 'squidfunk/mkdocs-material:9.5',
  'link-check': 'lycheeverse/lychee:0.15',
  gradle: 'cimg/android:2024.04',
  xcode: 'macos-14-xcode-15',
  deploy: 'bitnami/kubectl:1.30',
};

/** Topic words per kind, for branch names and commit titles. */
export const TOPICS: Readonly<Record<ProjectKind, readonly string[]>> = {
  'node-service': [
    'webhook retries',
    'email templates',
    'push tokens',
    'digest batching',
    'SES bounce handling',
    'rate limiter',
  ],
  frontend: [
    'checkout form',
    'dark mode',
    'date picker',
    'cart drawer',
    'a11y labels',
    'search bar',
    'Button variants',
  ],
  'go-service': [
    'rate limiting',
    'JWT validation',
    'request tracing',
    'circuit breaker',
    'health checks',
    'gRPC gateway',
  ],
  'rust-service': [
    'segment merging',
    'tokenizer',
    'index compaction',
    'query planner',
    'mmap reader',
  ],
  'python-data': [
    'dedupe step',
    'feature store',
    'backfill job',
    'schema drift',
    'model registry',
    'Airflow DAG',
  ],
  'java-service': [
    'proration',
    'invoice PDFs',
    'dunning emails',
    'currency rounding',
    'Stripe webhooks',
  ],
  terraform: ['VPC peering', 'RDS module', 'IAM roles', 'S3 lifecycle', 'EKS node groups'],
  helm: ['resource limits', 'HPA', 'ingress annotations', 'pod disruption budget'],
  docs: ['API reference', 'quick start', 'auth guide', 'changelog', 'SDK examples'],
  mobile: ['offline mode', 'push permissions', 'deep links', 'biometric login', 'onboarding'],
};

/** Conventional-commit verbs with weights. */
export const COMMIT_TYPES: readonly (readonly [string, number])[] = [
  ['feat', 30],
  ['fix', 30],
  ['refactor', 10],
  ['chore', 10],
  ['test', 8],
  ['perf', 5],
  ['docs', 4],
  ['ci', 3],
];

/** Commit-title phrasings per verb ({t} = topic). */
export const COMMIT_PHRASES: Readonly<Record<string, readonly string[]>> = {
  feat: ['add {t}', 'support {t}', 'introduce {t} behind a flag', 'expose {t} in the API'],
  fix: [
    'handle empty {t}',
    'stop {t} from retrying forever',
    'correct {t} on timezone change',
    'guard {t} against nil',
  ],
  refactor: ['split {t} into smaller modules', 'simplify {t}', 'extract {t} interface'],
  chore: ['bump dependencies', 'update {t} config', 'clean up {t} leftovers'],
  test: ['cover {t} edge cases', 'make {t} tests deterministic', 'add regression test for {t}'],
  perf: ['cache {t} lookups', 'batch {t} writes'],
  docs: ['document {t}', 'fix typos in {t} guide'],
  ci: ['cache dependencies between jobs', 'split {t} job', 'run {t} only on merge requests'],
};
