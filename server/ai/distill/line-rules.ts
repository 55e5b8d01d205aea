/**
 * The line-level vocabulary code outside distill/ uses, so it need not know the layout of the
 * rules (rules/) and of the line patterns beside them.
 */
export { classifyLine, type LineClass } from './rules/classify-line.ts';
export { DISK_FULL } from './rules/families/machine.ts';
export type { FailureCategory, LineKind } from './rules/rule.ts';
export { stripCiPrefix } from './ci-prefix.ts';
export { COMMAND_VERDICT, WRAPPER } from './step-lines.ts';
