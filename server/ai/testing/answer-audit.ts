// Audits of what the offline analyser tells a reader, over whole sets of logs (the real corpus,
// the simulator's failed jobs): shared by the tests and `npm run bench`.
import { distillLog, stripAnsi } from '../distill/log-distiller.ts';
import { minimalContext, type JobContext } from '../job-context.ts';
import { answerOffline } from '../offline/follow-up.ts';
import { locationsIn, type SourceLocation } from '../offline/locations.ts';
import { analyseOffline } from '../offline/report.ts';
import { unsafeProposals } from '../offline/safe-commands.ts';

// A job after a green run, in a named image, so the "reproduce" answer wraps the command in
// `docker run` and the advice compares commits. (No vitest import: the bench uses this too.)
const CONTEXT: JobContext = {
  ...minimalContext({
    projectId: 7,
    pipelineId: 300,
    jobId: 9001,
    jobName: 'deploy',
    stage: 'deploy',
  }),
  ref: 'main',
  image: 'ci-image:latest',
  commit: { sha: 'b'.repeat(40), shortId: 'bbbbbbbb', title: 'Change', author: 'Ada' },
  previousSuccess: {
    jobId: 8990,
    pipelineId: 290,
    finishedAt: '2026-11-20T10:00:00Z',
    durationSec: 80,
    commit: { sha: 'a'.repeat(40), shortId: 'aaaaaaaa', title: 'Earlier', author: 'Lin' },
  },
};

/** One answer that proposed a command changing remote state. */
export interface UnsafeAnswer {
  log: string;
  answer: string;
  commands: string[];
}

/**
 * Every answer the offline analyser gives about each log (the analysis with and without a job
 * context, "how do I reproduce it" and "how do I fix it") that proposes a command which changes
 * remote state.
 */
export function unsafeAnswers(logs: readonly { id: string; text: string }[]): UnsafeAnswer[] {
  const out: UnsafeAnswer[] = [];
  for (const l of logs) {
    const distilled = distillLog(l.text);
    const answers: [string, string][] = [
      ['analysis', analyseOffline(distilled)],
      ['analysis with context', analyseOffline(distilled, CONTEXT)],
    ];
    for (const question of ['How can I reproduce it locally?', 'How do I fix it?']) {
      const analysis = answers[1]![1];
      answers.push([question, answerOffline({ question, distilled, context: CONTEXT, analysis })]);
    }
    for (const [answer, text] of answers) {
      const unsafe = unsafeProposals(text);
      if (unsafe.length > 0)
        out.push({ log: l.id, answer, commands: unsafe.map((c) => c.command) });
    }
  }
  return out;
}

// How far around an expert's decisive line the raw log is read for the location it belongs to.
const LOCATION_REACH = 8;

/**
 * How many logs have a source location (one the tool printed with the expert's decisive lines,
 * read from them and the lines around them in the raw log) and how many of those the offline
 * analysis quotes: one of those locations' file name with its line number on the same line.
 */
export function locationShare(logs: readonly { id: string; text: string; decisive: string[] }[]): {
  withLocation: number;
  quoted: number;
  missed: string[];
} {
  let withLocation = 0;
  let quoted = 0;
  const missed: string[] = [];
  for (const l of logs) {
    const raw = stripAnsi(l.text).split(/\r?\n/);
    const near = l.decisive.flatMap((d) => {
      const i = raw.findIndex((line) => line.includes(stripAnsi(d).trim()));
      return i < 0 ? [d] : raw.slice(Math.max(0, i - LOCATION_REACH), i + LOCATION_REACH + 1);
    });
    const expected = locationsIn(near);
    if (expected.length === 0) continue;
    withLocation++;
    const answer = analyseOffline(distillLog(l.text)).split('\n');
    const names = (loc: SourceLocation) => {
      const base = loc.file.split(/[\\/]/).at(-1)!;
      return answer.some(
        (line) => line.includes(base) && new RegExp(`\\b${loc.line}\\b`).test(line),
      );
    };
    if (expected.some(names)) quoted++;
    else missed.push(l.id);
  }
  return { withLocation, quoted, missed };
}
