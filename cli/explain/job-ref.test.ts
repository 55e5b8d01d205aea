import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.ts';
import { gitlabBaseOf, isUnder, parseJobRef, projectOf, type JobRef } from './job-ref.ts';

const urlRef = (text: string) => parseJobRef([text]) as Extract<JobRef, { kind: 'url' }>;

describe('parseJobRef', () => {
  it('reads a job URL, with anything after the id, a query or a fragment', () => {
    for (const text of [
      'https://gitlab.example.com/acme/platform/api/-/jobs/123',
      'https://gitlab.example.com/acme/platform/api/-/jobs/123/raw',
      'https://gitlab.example.com/acme/platform/api/-/jobs/123/artifacts/browse?x=1#L5',
    ]) {
      const ref = urlRef(text);
      expect(ref.jobId, text).toBe(123);
      expect(projectOf(ref, 'https://gitlab.example.com'), text).toBe('acme/platform/api');
    }
  });

  it('reads PROJECT JOB_ID with a numeric id or a full path', () => {
    expect(parseJobRef(['42', '7'])).toEqual({ kind: 'id', project: '42', jobId: 7 });
    expect(parseJobRef(['/acme/api/', '7'])).toEqual({ kind: 'id', project: 'acme/api', jobId: 7 });
    expect(projectOf(parseJobRef(['acme/api', '7']), 'https://x')).toBe('acme/api');
  });

  it('refuses anything else with bad_job_ref and says what to give', () => {
    const cases: [string[], RegExp][] = [
      [[], /^which job\? give a job URL/],
      [['123'], /job 123 needs its project: 'PROJECT 123'/],
      [['acme'], /'acme' is not a job: give a job URL/],
      [['https://gitlab.example.com/acme/api/-/pipelines/9'], /is not a GitLab job URL/],
      [['ftp://gitlab.example.com/acme/api/-/jobs/9'], /is not a GitLab job URL/],
      [['https://gitlab.example.com/-/jobs/9'], /names no project before \/-\/jobs\//],
      [['https://gitlab.example.com/acme/api/-/jobs/99999999999999999'], /not a GitLab job URL/],
      [['acme/api', '0'], /'0' is not a job id/],
      [['acme', '5'], /'acme' is not a project/],
      [['acme/a b', '5'], /is not a project/],
      [['a/b', '1', '2'], /^too many arguments/],
    ];
    for (const [args, message] of cases) {
      let error: unknown;
      try {
        parseJobRef(args);
      } catch (err) {
        error = err;
      }
      expect(error, args.join(' ')).toBeInstanceOf(CliError);
      expect((error as CliError).code, args.join(' ')).toBe('bad_job_ref');
      expect((error as CliError).message, args.join(' ')).toMatch(message);
    }
  });
});

describe('a job URL on a GitLab with a relative root', () => {
  const ref = urlRef('https://example.com/gitlab/acme/api/-/jobs/5');

  it('keeps the configured base when the URL lies under it, else takes its origin', () => {
    expect(gitlabBaseOf(ref, 'https://example.com/gitlab/')).toBe('https://example.com/gitlab');
    expect(projectOf(ref, 'https://example.com/gitlab')).toBe('acme/api');
    expect(projectOf(ref, 'https://example.com')).toBe('gitlab/acme/api');
    expect(gitlabBaseOf(ref, 'https://gitlab.com')).toBe('https://example.com');
    expect(gitlabBaseOf(ref)).toBe('https://example.com');
  });

  it('knows which GitLab a URL belongs to', () => {
    expect(isUnder(ref.url, 'https://example.com')).toBe(true);
    expect(isUnder(ref.url, 'https://example.com/gitlab')).toBe(true);
    expect(isUnder(ref.url, 'https://example.com/other')).toBe(false);
    expect(isUnder(ref.url, 'http://example.com')).toBe(false);
  });
});
