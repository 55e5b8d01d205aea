// "Who broke it and when did it last pass?" (issue 30, item 9): the walk over the ref's pipelines,
// the answer's words, and the follow-up over HTTP with the offline analyser and with a model.
// GitLab's pipeline job list holds the latest attempt of each job unless include_retried is given
// (https://docs.gitlab.com/ee/api/jobs.html#list-pipeline-jobs; since 13.5,
// https://gitlab.com/gitlab-org/gitlab/-/merge_requests/48589), so one job of a name a pipeline.
import { afterEach, describe, expect, it } from 'vitest';
import type { GitLabJob } from '../gitlab/wire.ts';
import { describeBreakage, findBreakage, MAX_WALK, type BreakageFacts } from './breakage.ts';
import { recordedRunOf } from './recorded-runs.ts';
import { messageText, startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server.ts';
import { makeJob } from './testing/failed-pipeline-scenario.ts';
import { jobBody, startAiHarness, type AiHarness } from './testing/harness.ts';

const commit = (c: string, title: string, author: string) => ({
  id: c.repeat(40),
  short_id: c.repeat(8),
  title,
  message: '',
  author_name: author,
  author_email: 'dev@example.com',
  created_at: '2026-11-21T09:00:00.000Z',
});

/** Pipelines 293 (test:unit green, pipeline failed on lint), 295 (test:unit failed, Grace's
 * commit), 298 (no test:unit: docs only), then this run, 300 (Ada's commit). */
function history(): GitLabJob[] {
  return [
    makeJob({
      id: 8993,
      pipelineId: 293,
      status: 'success',
      finished_at: '2026-11-21T09:30:00.000Z',
      commit: commit('d', 'Tidy the cart', 'Lin'),
    }),
    makeJob({
      id: 8994,
      pipelineId: 293,
      name: 'lint',
      commit: commit('d', 'Tidy the cart', 'Lin'),
    }),
    makeJob({
      id: 8995,
      pipelineId: 295,
      finished_at: '2026-11-21T10:15:00.000Z',
      commit: commit('c', 'Round totals to cents', 'Grace'),
    }),
    makeJob({ id: 8998, pipelineId: 298, name: 'docs', status: 'success' }),
  ];
}

describe('findBreakage', () => {
  const current = recordedRunOf(makeJob({ id: 9001, pipelineId: 300 }));
  const green290 = {
    jobId: 8990,
    pipelineId: 290,
    finishedAt: null,
    durationSec: 120,
    commit: undefined,
  };
  const pipelines = (ids: number[]) =>
    ids.map((id) => ({ id, ref: 'main' }) as Parameters<typeof findBreakage>[2][number]);

  it('walks back to the newest green run: the first failure after it and how many failed', async () => {
    const jobs = history();
    const read: number[] = [];
    const found = await findBreakage(current, green290, pipelines([298, 295, 293, 290]), (p) => {
      read.push(p.id);
      return Promise.resolve(jobs.filter((j) => j.pipeline.id === p.id).map(recordedRunOf));
    });
    expect(read).toEqual([298, 295, 293]);
    expect(found.green).toEqual({
      jobId: 8993,
      pipelineId: 293,
      finishedAt: '2026-11-21T09:30:00.000Z',
      durationSec: 120,
      commit: { sha: 'd'.repeat(40), shortId: 'dddddddd', title: 'Tidy the cart', author: 'Lin' },
    });
    expect(found.breakage).toEqual({
      firstFailure: {
        jobId: 8995,
        pipelineId: 295,
        finishedAt: '2026-11-21T10:15:00.000Z',
        commit: {
          sha: 'c'.repeat(40),
          shortId: 'cccccccc',
          title: 'Round totals to cents',
          author: 'Grace',
        },
      },
      failedRuns: 2,
      complete: true,
    });
  });

  it(`stops after ${MAX_WALK} pipelines and says the failures may have started earlier`, async () => {
    const ids = Array.from({ length: 12 }, (_, i) => 299 - i);
    const found = await findBreakage(current, green290, pipelines(ids), (p) =>
      Promise.resolve([recordedRunOf(makeJob({ id: p.id * 10, pipelineId: p.id }))]),
    );
    expect(found.breakage.complete).toBe(false);
    expect(found.breakage.failedRuns).toBe(1 + MAX_WALK);
    expect(found.breakage.firstFailure.pipelineId).toBe(299 - MAX_WALK + 1);
    expect(found.green).toBe(green290);
  });
});

describe('describeBreakage', () => {
  const facts: BreakageFacts = {
    jobId: 9001,
    jobName: 'test:unit',
    pipelineId: 300,
    ref: 'main',
    commit: { sha: 'b'.repeat(40), shortId: 'bbbbbbbb', title: 'Apply discounts', author: 'Ada' },
    previousSuccess: {
      jobId: 8990,
      pipelineId: 290,
      finishedAt: '2026-11-21T09:30:00.000Z',
      durationSec: 120,
      commit: { sha: 'a'.repeat(40), shortId: 'aaaaaaaa', title: 'Bump deps', author: 'Lin' },
    },
  };

  it('an analysis stored before the walk: this run is the first failure known', () => {
    expect(describeBreakage(facts)).toBe(
      [
        '- **Last green:** job #8990 in pipeline #290 on `main`, finished 2026-11-21 09:30:00 UTC, at commit aaaaaaaa “Bump deps” by Lin.',
        '- **First failure after it:** job #9001 in pipeline #300, at commit bbbbbbbb “Apply discounts” by Ada — this run.',
        '',
        '**Who broke it:** the failures start at bbbbbbbb by Ada. What came in between is `git log aaaaaaaa..bbbbbbbb`; start with that commit.',
      ].join('\n'),
    );
  });

  it('the same commit green then red is nobody’s commit; no green run or no lookup say so', () => {
    const same = { ...facts, commit: facts.previousSuccess!.commit };
    expect(describeBreakage(same)).toMatch(
      /\*\*Who broke it:\*\* no commit — the first failing run built the same commit that passed \(aaaaaaaa\)/,
    );
    expect(describeBreakage({ ...facts, previousSuccess: null })).toBe(
      'No green run of `test:unit` on `main` was found in the recent pipelines searched: it has been failing for longer than that history, so no single commit broke it within it.',
    );
    expect(describeBreakage({ ...facts, previousSuccess: undefined })).toBeUndefined();
  });
});

describe('the follow-up over HTTP', () => {
  let h: AiHarness;
  let fake: FakeLlmServer | undefined;
  const withHistory = (harness: AiHarness) => {
    harness.gitlab.jobs.push(...history());
    const list = harness.gitlab.pipelines.get(7)!;
    for (const id of [293, 295, 298]) {
      list.push({ ...list.find((p) => p.id === 290)!, id, iid: id, status: 'failed' });
    }
  };
  const expected = [
    '- **Last green:** job #8993 in pipeline #293 on `main`, finished 2026-11-21 09:30:00 UTC, at commit dddddddd “Tidy the cart” by Lin.',
    '- **First failure after it:** job #8995 in pipeline #295, finished 2026-11-21 10:15:00 UTC, at commit cccccccc “Round totals to cents” by Grace.',
    '- Since the last green run this job failed 2 times, this run included.',
    '',
    '**Who broke it:** the failures start at cccccccc by Grace. What came in between is `git log dddddddd..cccccccc`; start with that commit.',
  ].join('\n');
  afterEach(async () => {
    await h.close();
    await fake?.close();
    fake = undefined;
  });

  it('offline: "who broke it and when did it last pass?" and its paraphrases get the runs', async () => {
    h = await startAiHarness();
    withHistory(h);
    const analysis = (await (await h.post('/ai/analyse', jobBody(9001))).json()) as {
      analysis: string;
    };
    // The analysis already names the newer green run the walk found.
    expect(analysis.analysis).toContain('was job #8993 in pipeline #293');
    for (const question of [
      'Who broke it and when did it last pass?',
      'when did this start failing',
      'last green?',
      'who broke the build',
    ]) {
      const res = await h.post('/ai/followup', jobBody(9001, { question }));
      const { answer } = (await res.json()) as { answer: string };
      expect(answer, question).toBe(
        `${expected}\n\n_Answered by the built-in offline analyser from the job log._`,
      );
    }
  });

  it('a configured model gets the same runs in the follow-up', async () => {
    fake = await startFakeLlmServer('openai');
    h = await startAiHarness({
      config: { provider: 'openai', baseUrl: fake.baseUrl, model: 'm', apiKey: 'sk-test-123456' },
    });
    withHistory(h);
    await h.post('/ai/analyse', jobBody(9001));
    await h.post('/ai/followup', jobBody(9001, { question: 'Who broke it?' }));
    const messages = fake.calls[1]!.body.messages!.map((m) => messageText(m.content));
    expect(messages.at(-1)).toBe(
      `The job's runs on its ref (for "who broke it", "when did it last pass"):\n\n${expected}\n\nFollow-up question about the same job (answer concisely, from the log excerpt, the analysis, those runs and our conversation):\n\nWho broke it?`,
    );
  });
});
