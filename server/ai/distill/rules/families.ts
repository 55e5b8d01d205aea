/**
 * Every rule family, in the order the README lists them. Which rule wins a line is not decided
 * here but by the precedence list (precedence.ts).
 */
import { buildFamily } from './families/build.ts';
import { ciSystemsFamily } from './families/ci-systems.ts';
import { configFamily } from './families/config.ts';
import { credentialsFamily } from './families/credentials.ts';
import { dependenciesFamily } from './families/dependencies.ts';
import { deployFamily } from './families/deploy.ts';
import { gitlabRunnerFamily } from './families/gitlab-runner.ts';
import { lintFamily } from './families/lint.ts';
import { machineFamily } from './families/machine.ts';
import { qualityGatesFamily } from './families/quality-gates.ts';
import { scriptFamily } from './families/script.ts';
import { servicesFamily } from './families/services.ts';
import { testRunnersFamily } from './families/test-runners.ts';
import type { RuleFamily } from './rule.ts';

/** The rule families. */
export const FAMILIES = [
  gitlabRunnerFamily,
  ciSystemsFamily,
  testRunnersFamily,
  buildFamily,
  lintFamily,
  dependenciesFamily,
  configFamily,
  credentialsFamily,
  qualityGatesFamily,
  deployFamily,
  servicesFamily,
  machineFamily,
  scriptFamily,
] as const satisfies readonly RuleFamily[];

/** The full name of every rule, `<family>/<rule>`. */
export type RuleName = (typeof FAMILIES)[number]['rules'][number]['name'];

/** The full name of every family's advice, `<family>/<advice>`. */
export type AdviceName = (typeof FAMILIES)[number]['advice'][number]['name'];

/** The family that declares `rule`. */
export function familyOf(rule: string): RuleFamily | undefined {
  return FAMILIES.find((f) => rule.startsWith(`${f.name}/`));
}
