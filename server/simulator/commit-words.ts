import type { ProjectKind } from './model.ts';

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
  'rails-service': [
    'invoice mailer',
    'order state machine',
    'Sidekiq retries',
    'N+1 queries',
    'strong parameters',
    'ActiveStorage uploads',
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
