/**
 * zod schemas for what GitLab sends, checked at the wire boundary (GitLabClient) before anything
 * else sees it: integer ids, strings where strings belong, http(s) URLs only for links a browser
 * may follow, and timestamps normalised to UTC (`…Z`) whatever offset the instance or the committer
 * used. Only the fields the service reads are kept; anything else GitLab sends is stripped.
 */
import { z } from 'zod';
import type {
  GitLabBridge,
  GitLabCommit,
  GitLabGroup,
  GitLabJob,
  GitLabMergeRequest,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
  GitLabTreeEntry,
  GitLabTestReport,
  GitLabTestReportSummary,
  GitLabUser,
} from './wire.ts';

const id = z.number().int().positive();

/** A link the dashboard may render: http or https only (never `javascript:` or `data:`). */
export const httpUrlSchema = z
  .string()
  .max(4096)
  // URL.canParse accepts exactly what `new URL` does, without building the URL object (a tenth
  // of the cost; every answer carries links).
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'not an http(s) URL');

// GitLab's REST timestamps are mostly UTC already (`2024-05-01T10:00:00.123Z`). Such a value with
// in-range fields is its own `toISOString()`; telling that from the digits spares a Date.parse
// and a toISOString (together most of a job's validation time). Anything else, including a
// 24:00 or 30 February, takes the Date round trip.
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The decimal number in `value[from, to)`, or -1 unless all of it is ASCII digits. */
function digitsAt(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}
/** `YYYY-MM-DDTHH:mm:ss.sssZ` with every field in range (read without a regex: it runs per field). */
function isCanonicalUtc(value: string): boolean {
  if (
    value.length !== 24 ||
    value.charCodeAt(4) !== 45 || // -
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== 84 || // T
    value.charCodeAt(13) !== 58 || // :
    value.charCodeAt(16) !== 58 ||
    value.charCodeAt(19) !== 46 || // .
    value.charCodeAt(23) !== 90 || // Z
    digitsAt(value, 20, 23) < 0
  ) {
    return false;
  }
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 7);
  const day = digitsAt(value, 8, 10);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  const hour = digitsAt(value, 11, 13);
  const minute = digitsAt(value, 14, 16);
  const second = digitsAt(value, 17, 19);
  return (
    year >= 0 &&
    days !== undefined &&
    day >= 1 &&
    day <= days &&
    hour >= 0 &&
    hour <= 23 &&
    minute >= 0 &&
    minute <= 59 &&
    second >= 0 &&
    second <= 59
  );
}

/** ISO 8601 with any offset in, UTC `…Z` out (docs/api.md promises UTC). */
export const utcTimeSchema = z
  .string()
  .max(64)
  .refine((value) => isCanonicalUtc(value) || !Number.isNaN(Date.parse(value)), 'not a timestamp')
  .transform((value) =>
    isCanonicalUtc(value) ? value : new Date(Date.parse(value)).toISOString(),
  );

const status = z.string().regex(/^[a-z_]{1,40}$/, 'not a status');
const text = (max = 10_000) => z.string().max(max);

/** A user (embedded in pipelines and jobs, and GET /user). */
export const userSchema = z.object({
  id,
  username: text(255),
  name: text(255),
  state: text(64).optional().default('active'),
  avatar_url: httpUrlSchema.nullable().optional().default(null),
  web_url: httpUrlSchema.optional(),
});

/** GET /user: the token's own user with the addresses its commits may carry. */
export const currentUserSchema = userSchema.extend({
  email: text(255).nullable().optional(),
  public_email: text(255).nullable().optional(),
  commit_email: text(255).nullable().optional(),
});

/** GET /groups/:id (with_projects=false) and /groups/:id/subgroups. */
export const groupSchema = z.object({
  id,
  name: text(255),
  path: text(255),
  full_path: text(4096),
  description: text().nullable().optional().default(''),
  visibility: z.enum(['private', 'internal', 'public']).optional().default('private'),
  parent_id: id.nullable().optional().default(null),
  web_url: httpUrlSchema,
  avatar_url: httpUrlSchema.nullable().optional().default(null),
});

/** Element of GET /groups/:id/projects. */
export const projectSchema = z.object({
  id,
  name: text(255),
  name_with_namespace: text(4096).optional().default(''),
  path: text(255),
  path_with_namespace: text(4096),
  description: text().nullable().optional().default(null),
  default_branch: text(255).nullable().optional().default(''),
  web_url: httpUrlSchema,
  archived: z.boolean().optional().default(false),
  created_at: utcTimeSchema.optional().default(''),
  last_activity_at: utcTimeSchema.optional().default(''),
  namespace: z
    .object({
      id,
      name: text(255),
      path: text(255),
      kind: z.enum(['group', 'user']),
      full_path: text(4096),
      parent_id: id.nullable().optional().default(null),
    })
    .optional(),
});

/** Element of GET /projects/:id/pipelines. */
export const pipelineListItemSchema = z.object({
  id,
  iid: z.number().int().nonnegative(),
  project_id: id,
  sha: text(64),
  ref: text(1024),
  status,
  source: text(64),
  created_at: utcTimeSchema,
  updated_at: utcTimeSchema,
  web_url: httpUrlSchema,
  name: text(1024).nullable().optional(),
});

const seconds = z.number().finite().nonnegative().nullable().optional().default(null);

/** GET /projects/:id/pipelines/:pipeline_id */
export const pipelineSchema = pipelineListItemSchema.extend({
  before_sha: text(64).optional().default(''),
  tag: z.boolean().optional().default(false),
  yaml_errors: text().nullable().optional().default(null),
  user: userSchema.nullable().optional().default(null),
  started_at: utcTimeSchema.nullable().optional().default(null),
  finished_at: utcTimeSchema.nullable().optional().default(null),
  committed_at: utcTimeSchema.nullable().optional().default(null),
  duration: seconds,
  queued_duration: seconds,
  coverage: z.union([z.string(), z.number()]).nullable().optional().default(null),
});

const commitSchema = z.object({
  id: text(64),
  short_id: text(64),
  title: text(),
  message: text(100_000),
  author_name: text(255),
  author_email: text(255),
  created_at: utcTimeSchema,
});

/** GET /projects/:id/repository/commits/:sha */
export const fullCommitSchema = commitSchema.extend({
  authored_date: utcTimeSchema.optional().default(''),
  committer_name: text(255).optional().default(''),
  committer_email: text(255).optional().default(''),
  committed_date: utcTimeSchema.optional().default(''),
  parent_ids: z.array(text(64)).optional().default([]),
  web_url: httpUrlSchema,
});

/**
 * Element of GET /projects/:id/pipelines/:pipeline_id/jobs and GET /projects/:id/jobs (lists), and
 * GET /projects/:id/jobs/:job_id
 */
export const jobSchema = z.object({
  id,
  name: text(1024),
  stage: text(1024),
  status,
  ref: text(1024),
  tag: z.boolean().optional().default(false),
  allow_failure: z.boolean(),
  created_at: utcTimeSchema,
  started_at: utcTimeSchema.nullable().optional().default(null),
  finished_at: utcTimeSchema.nullable().optional().default(null),
  duration: seconds,
  queued_duration: seconds,
  failure_reason: text(255).optional(),
  web_url: httpUrlSchema,
  user: userSchema.nullable().optional().default(null),
  commit: commitSchema.nullable().optional().default(null),
  pipeline: z.object({
    id,
    project_id: id,
    ref: text(1024),
    sha: text(64),
    status,
    updated_at: utcTimeSchema.optional(),
  }),
  artifacts: z
    .array(z.object({ file_type: text(64) }))
    .max(100)
    .optional(),
  artifacts_expire_at: utcTimeSchema.nullable().optional(),
});

/** Element of GET /projects/:id/pipelines/:pipeline_id/bridges (trigger jobs). */
export const bridgeSchema = z.object({
  id,
  name: text(1024),
  stage: text(1024),
  status,
  created_at: utcTimeSchema,
  web_url: httpUrlSchema,
  allow_failure: z.boolean().optional(),
  downstream_pipeline: z
    .object({
      id,
      status,
      web_url: httpUrlSchema,
      project_id: id.optional(),
      updated_at: utcTimeSchema.optional(),
    })
    .nullable()
    .optional()
    .default(null),
});

/** GET /projects/:id/merge_requests/:merge_request_iid (the fields MR pipelines are labelled with). */
export const mergeRequestSchema = z.object({
  id,
  iid: id,
  project_id: id,
  title: text(1024),
  state: text(64),
  source_branch: text(1024),
  target_branch: text(1024),
  web_url: httpUrlSchema,
});

/** An element of GET /projects/:id/repository/tree (doc/api/repositories.md). */
export const treeEntrySchema = z.object({
  id: text(64),
  name: text(1024),
  type: text(16),
  path: text(4096),
  mode: text(16),
});

/** An element of GET /groups/:id/merge_requests (the fields triage reads). */
export const mergeRequestListItemSchema = mergeRequestSchema.extend({
  sha: z
    .string()
    .regex(/^[0-9a-f]{7,64}$/, 'not a commit sha')
    .nullable()
    .optional()
    .default(null),
  author: z
    .object({ id, username: text(255) })
    .nullable()
    .optional()
    .default(null),
  updated_at: z.string().max(64),
});

/** The wire type each schema checks (the schema's output is that type, timestamps in UTC). */
export interface WireSchemas {
  group: GitLabGroup;
  project: GitLabProject;
  pipelineListItem: GitLabPipelineListItem;
  pipeline: GitLabPipeline;
  job: GitLabJob;
  commit: GitLabCommit;
  bridge: GitLabBridge;
  user: GitLabUser;
  mergeRequest: GitLabMergeRequest;
  treeEntry: GitLabTreeEntry;
  testReport: GitLabTestReport;
  testReportSummary: GitLabTestReportSummary;
}

/** One reason a value failed its schema, short enough for a log line (no values, only paths). */
export function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'invalid';
  const where = first.path.length > 0 ? first.path.join('.') : 'value';
  return `${where}: ${first.message}`;
}

const testCount = z.number().int().nonnegative();
const testSeconds = z.number().nonnegative().catch(0);
// A name or trace of any length is read; what is kept is bounded where it is stored.
const anyText = z.string().nullable().optional().default(null);

/** GET /projects/:id/pipelines/:pipeline_id/test_report (doc/api/pipelines.md). */
export const testReportSchema = z.object({
  total_time: testSeconds,
  total_count: testCount,
  success_count: testCount,
  failed_count: testCount,
  skipped_count: testCount,
  error_count: testCount,
  test_suites: z.array(
    z.object({
      name: z.string().max(1024),
      total_time: testSeconds,
      total_count: testCount,
      success_count: testCount,
      failed_count: testCount,
      skipped_count: testCount,
      error_count: testCount,
      suite_error: anyText,
      test_cases: z.array(
        z.object({
          status: z.string().max(32),
          // TestCaseEntity: `expose :name, default: "(No name)"`.
          name: z
            .string()
            .nullable()
            .transform((n) => n ?? '(No name)'),
          classname: z
            .string()
            .nullable()
            .optional()
            .transform((c) => c ?? ''),
          file: anyText,
          execution_time: z.number().nonnegative().nullable().optional().default(null),
          system_output: anyText,
          stack_trace: anyText,
        }),
      ),
    }),
  ),
});

/** GET /projects/:id/pipelines/:pipeline_id/test_report_summary (doc/api/pipelines.md). */
export const testReportSummarySchema = z.object({
  total: z.object({
    time: testSeconds,
    count: testCount,
    success: testCount,
    failed: testCount,
    skipped: testCount,
    error: testCount,
    suite_error: anyText,
  }),
  test_suites: z.array(
    z.object({
      name: z.string().max(1024),
      total_time: testSeconds,
      total_count: testCount,
      success_count: testCount,
      failed_count: testCount,
      skipped_count: testCount,
      error_count: testCount,
      build_ids: z.array(z.coerce.number().int().positive()).default([]),
      suite_error: anyText,
    }),
  ),
});
