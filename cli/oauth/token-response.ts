import { TokenError } from './errors.ts';
import { OUTPUT_FORMATS, type OutputFormat } from './cached-token.ts';

export {
  formatTokenResponse,
  OUTPUT_FORMATS,
  toTokenResponse,
  type OutputFormat,
  type TokenResponse,
} from './cached-token.ts';

/** Parses `-o`; anything else is a usage error. */
export function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'token';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new TokenError(
    'usage',
    `--output must be one of ${OUTPUT_FORMATS.join(', ')}, not '${value}'`,
  );
}
