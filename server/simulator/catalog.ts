import type { ProjectKind } from './model.ts';

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
  {
    group: 'web',
    path: 'storefront',
    kind: 'rails-service',
    description: 'The Rails storefront and its admin.',
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
