import type { ParseArgsConfig } from 'node:util';
import { nodeUtil } from '../server/platform/builtins.ts';
import { CliError } from './errors.ts';

/**
 * node:util parseArgs (strict) with its errors turned into usage CliErrors that name the command,
 * e.g. "Unknown option '--colour'. Run 'pipeline-summary summary --help' for the flags."
 */
export function parseFlags<T extends ParseArgsConfig>(argv: string[], config: T, command: string) {
  try {
    return nodeUtil().parseArgs({ ...config, args: argv, strict: true });
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new CliError('usage', `${message}. Run '${command} --help' for the flags.`, {
      cause: err,
    });
  }
}
