import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import { minimalContext } from '../job-context.ts';
import { describeJob } from '../prompt.ts';
import { pastFixesOf } from '../use-case-deps.ts';
import { analyseOffline } from './report.ts';

// Triage hands the AI what fixed the same error before (server/triage/triage-service.ts).
const log = [
  '$ npx tsc --noEmit',
  "src/api/client.ts(41,7): error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.",
  'ERROR: Job failed: exit code 2',
].join('\n');
const id = { projectId: 1, pipelineId: 2, jobId: 3, jobName: 'typecheck', stage: 'test' };
const FIX =
  "This error was fixed before by a1b2c3d4 'pin node to 20.11' by Dana Reyes (!7) 2 weeks ago (pipeline #88, after the same error in #80).";

describe('past fixes in the analysis', () => {
  it('reach the prompt and the offline analysis as evidence', () => {
    const context = { ...minimalContext(id, 'api'), pastFixes: FIX };
    const distilled = distillLog(log, { budgetChars: 4000 });
    expect(describeJob(context, distilled)).toContain(`- Past fixes: ${FIX}`);
    const report = analyseOffline(distilled, context);
    expect(report).toContain(`**Fixed before:** ${FIX} Look at that change first`);
    // Before the next steps, after the decisive lines.
    expect(report.indexOf('**Fixed before:**')).toBeGreaterThan(
      report.indexOf('**Decisive lines:**'),
    );
    expect(report.indexOf('**Fixed before:**')).toBeLessThan(report.indexOf('**Next steps:**'));
  });

  it('say nothing when no fix is known', () => {
    const distilled = distillLog(log, { budgetChars: 4000 });
    expect(analyseOffline(distilled, minimalContext(id, 'api'))).not.toContain('Fixed before');
    expect(describeJob(minimalContext(id, 'api'), distilled)).not.toContain('Past fixes');
  });

  it('are asked for with the job, and a failing lookup is no fix', async () => {
    const asked: unknown[] = [];
    const lookup = async (...args: unknown[]) => {
      asked.push(args);
      return FIX;
    };
    expect(await pastFixesOf({ pastFixes: lookup }, { ...id })).toBe(FIX);
    expect(asked).toEqual([[1, 2, 3, 'typecheck']]);
    const failing = async () => {
      throw new Error('history closed');
    };
    expect(await pastFixesOf({ pastFixes: failing }, id)).toBeUndefined();
    expect(await pastFixesOf({}, id)).toBeUndefined();
  });
});
