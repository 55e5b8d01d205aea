// Follow-ups and whole-pipeline analyses are told the failed tests of GitLab's JUnit reports, as
// the job analysis is (issue 26 "Analysis gets the structured failure"); checked in the prompt the
// local fake LLM endpoint receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobTestFailure } from './job-context.ts';
import { messageText, startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server.ts';
import { jobBody, startAiHarness, type AiHarness } from './testing/harness.ts';
import { FAKE_PROJECT } from './testing/failed-pipeline-scenario.ts';

const failure = (over: Partial<JobTestFailure>): JobTestFailure => ({
  suite: 'test:unit',
  classname: 'DiscountRules',
  name: 'DiscountRules applies discounts before tax',
  file: 'src/pricing/discount-rules.test.ts',
  status: 'failed',
  trace: 'Error: expect(received).toBe(expected)\n\nExpected: 90\nReceived: 100.5',
  knownFailingSince: null,
  flakes: 0,
  runs: 1,
  failures: 1,
  ...over,
});

const TESTS = new Map<number, JobTestFailure[]>([
  [9001, [failure({})]],
  [
    9003,
    [
      failure({
        suite: 'test:api',
        classname: 'OrdersApi',
        name: 'OrdersApi rejects an expired card',
        file: 'src/api/orders.test.ts',
        knownFailingSince: '2026-11-26T16:40:12.000Z',
        runs: 12,
        failures: 4,
      }),
    ],
  ],
]);

describe('failed tests in follow-ups and pipeline analyses', () => {
  let fake: FakeLlmServer;
  let h: AiHarness;
  const asked: string[] = [];
  beforeAll(async () => {
    fake = await startFakeLlmServer('openai');
    h = await startAiHarness({
      config: { provider: 'openai', baseUrl: fake.baseUrl, model: 'ci-model', apiKey: 'sk-x-1' },
      failedTests: (pipelineId, jobId) => {
        asked.push(`${pipelineId}:${jobId}`);
        return Promise.resolve(pipelineId === 300 ? TESTS.get(jobId) : undefined);
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
  });
  const lastPrompt = () =>
    (fake.calls.at(-1)!.body.messages ?? [])
      .filter((m) => m.role === 'user')
      .map((m) => messageText(m.content))
      .join('\n');

  it('a follow-up on a job analysed elsewhere is told its failed tests', async () => {
    const res = await h.post(
      '/ai/followup',
      jobBody(9001, { question: 'Which test broke?', previousAnalysis: 'The unit tests failed.' }),
    );
    expect(res.status).toBe(200);
    expect(asked).toEqual(['300:9001']);
    const prompt = lastPrompt();
    expect(prompt).toContain("GitLab's JUnit report names 1 failed test of this job.");
    expect(prompt).toContain(
      '- `DiscountRules applies discounts before tax` (DiscountRules, src/pricing/discount-rules.test.ts) — failed; new: no earlier failure is stored; failed 1 of 1 runs',
    );
    expect(prompt).toContain('Received: 100.5');
  });

  it("a pipeline analysis names each failed job's tests with its problem", async () => {
    asked.length = 0;
    const res = await h.post('/ai/analyse-pipeline', {
      projectId: FAKE_PROJECT.id,
      pipelineId: 300,
      force: true,
    });
    expect(res.status).toBe(200);
    // The failed jobs of pipeline 300: test:unit, lint, test:api.
    expect(asked.sort()).toEqual(['300:9001', '300:9002', '300:9003']);
    const prompt = lastPrompt();
    // test:unit and test:api fail with the same Jest error: one problem, both jobs' tests.
    expect(prompt.match(/### Failed tests \(JUnit report\)/g)?.length).toBe(1);
    expect(prompt).toContain("GitLab's JUnit report names 2 failed tests of these jobs.");
    expect(prompt).toContain(
      '- `OrdersApi rejects an expired card` (OrdersApi, src/api/orders.test.ts) — failed; failing on the default branch since 2026-11-26 16:40 UTC; failed 4 of 12 runs',
    );
    expect(prompt).toContain('- `DiscountRules applies discounts before tax`');
  });
});
