import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText, startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server.ts';
import { jobBody, startAiHarness, type AiHarness } from './testing/harness.ts';

describe('analysis against the last green run of the job', () => {
  let fake: FakeLlmServer;
  let h: AiHarness;
  beforeAll(async () => {
    fake = await startFakeLlmServer('openai');
    h = await startAiHarness({
      config: {
        provider: 'openai',
        baseUrl: fake.baseUrl,
        model: 'ci-model',
        apiKey: 'sk-x-123456',
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
  });

  it('leaves out what the green run printed too, keeps the errors, and says so in the prompt', async () => {
    const failed = h.gitlab.traces.get(9001)!;
    // The green run of job #8990: the same job script without the failing test, other timings.
    const green = failed
      .split('\n')
      .filter((l) => !/FAIL|●|Expected|Received|Job failed|failed/.test(l))
      .map((l) => l.replace(/\d+ms/g, '999ms'))
      .join('\n');
    h.gitlab.traces.set(8990, green);
    await h.post('/ai/analyse', jobBody(9001));
    expect(h.gitlab.calls).toContain('getJobTrace:8990');
    const prompt = (fake.calls[0]!.body.messages ?? [])
      .filter((m) => m.role === 'user')
      .map((m) => messageText(m.content))
      .join('\n');
    expect(prompt).toMatch(/\d+ lines that the last successful run of this job also printed/);
    expect(prompt).toContain('Received: 100.5');
    expect(prompt).toContain('$ npm test');
    // Shown without the green run (the log fits the budget), left out with it.
    expect(prompt).not.toContain('PASS  src/audit/order.test.ts');
  });
});
