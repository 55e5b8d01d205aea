// Flag parsing apart from behaviour: each command's parse(argv, env) is pure, so these run without
// a provider, a keychain or a process. Behaviour is tested through the bundled binaries
// (cli/oauth/cli.test.ts) and serve/summary's own tests.
import { describe, expect, it } from 'vitest';
import { cliCodeOf, EXIT_STATUS } from '../errors.ts';
import { COMMAND_NAMES } from '../pipeline-summary-main.ts';
import { getTokenCommand, parseGetTokenFlags, PIPELINE_SUMMARY_COMMANDS } from './get-token.ts';
import { inspectCommand } from './inspect.ts';
import { profileCommand } from './profile.ts';
import { refreshCommand } from './refresh.ts';
import { serveCommand } from './serve.ts';
import { summaryCommand } from './summary.ts';
import { tokenCommand } from './gitlab-token.ts';

/** Asserts `parse` fails with a usage error (exit 1 through the one table) saying `message`. */
function expectUsageError(parse: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    parse();
  } catch (err) {
    thrown = err;
  }
  expect(cliCodeOf(thrown)).toBe('usage');
  expect((thrown as Error).message).toMatch(message);
}

describe('get-token flags', () => {
  it('defaults to the default profile, token output and no explicit timeout', () => {
    expect(parseGetTokenFlags([])).toEqual({
      profile: 'default',
      scope: undefined,
      flow: undefined,
      format: 'token',
      force: false,
      noCache: false,
      timeoutMs: undefined,
      redirectUri: undefined,
      federatedTokenFile: undefined,
      federatedTokenFileFromEnv: undefined,
      file: undefined,
      silent: false,
      store: undefined,
    });
  });

  it('reads the short and long flags of GET-TOKEN.md', () => {
    expect(
      parseGetTokenFlags([
        '-p',
        'ci',
        '-s',
        'api://x/.default',
        '-f',
        'device-code',
        '-o',
        'json',
        '--force',
        '--no-cache',
        '--timeout',
        '2m',
        '--store',
        'file',
      ]),
    ).toMatchObject({
      profile: 'ci',
      scope: 'api://x/.default',
      flow: 'device-code',
      format: 'json',
      force: true,
      noCache: true,
      timeoutMs: 120_000,
      store: 'file',
    });
    expect(parseGetTokenFlags(['--help'])).toEqual({ help: true, status: 0 });
  });

  it.each([
    [['--timeout', '10'], /--timeout '10' is not a duration/],
    [['-f', 'implicit'], /--flow must be one of/],
    [['-o', 'xml'], /xml/],
    [['--store', 'vault'], /--store must be keychain, file or auto/],
    [['--frobnicate'], /Unknown option '--frobnicate'\. Run 'get-token --help'/],
  ])('refuses %j as a usage error', (argv, message) => {
    const command = getTokenCommand('get-token');
    expectUsageError(() => command.parse(argv, {}), message);
  });

  it("names pipeline-summary's command instead of 'Unexpected argument' (issue 30, item 6)", () => {
    const command = getTokenCommand('pipeline-summary get-token');
    expectUsageError(
      () => command.parse(['profile', 'add', 'ci'], {}),
      /^'profile' is not a get-token flag but a command of its own: run 'pipeline-summary profile …'$/,
    );
    expectUsageError(
      () => command.parse(['serve'], {}),
      /^'serve' is not a get-token flag but a command of its own: run 'pipeline-summary serve'$/,
    );
    expectUsageError(
      () => command.parse(['tokens'], {}),
      /^Unexpected argument 'tokens'\. This command does not take positional arguments\. Run/,
    );
  });

  it("knows every pipeline-summary command but get-token's own name", () => {
    expect([...PIPELINE_SUMMARY_COMMANDS].sort()).toEqual(
      COMMAND_NAMES.filter((name) => name !== 'get-token').sort(),
    );
  });
});

describe('the other commands parse apart from running', () => {
  it('refresh', () => {
    expect(refreshCommand.parse(['-p', 'x', '--timeout', '5s', '--silent'], {})).toMatchObject({
      profile: 'x',
      timeoutMs: 5000,
      silent: true,
    });
  });

  it('inspect takes a profile or one token, not both', () => {
    expect(inspectCommand.parse(['-'], {})).toMatchObject({ token: '-', format: 'text' });
    expectUsageError(() => inspectCommand.parse(['-p', 'a', 'tok'], {}), /not both/);
    expectUsageError(() => inspectCommand.parse(['-o', 'yaml'], {}), /text or json/);
  });

  it('token: the URL from the flag, else GITLAB_URL, as an origin; no action shows help, exit 1', () => {
    expect(tokenCommand.parse(['set'], { GITLAB_URL: 'https://gl.example.com/x/' })).toEqual({
      action: 'set',
      url: 'https://gl.example.com',
      store: undefined,
    });
    expect(tokenCommand.parse([], {})).toEqual({ help: true, status: EXIT_STATUS.usage });
    expectUsageError(() => tokenCommand.parse(['set', '--url', 'gitlab'], {}), /http\(s\)/);
    expectUsageError(() => tokenCommand.parse(['rotate'], {}), /token set/);
  });

  it('profile: known actions only; the config root from the environment', () => {
    expect(
      profileCommand.parse(['show', 'ci', '-o', 'json'], { PIPELINE_SUMMARY_HOME: '/tmp/ps' }),
    ).toMatchObject({ action: 'show', names: ['ci'], home: '/tmp/ps' });
    expect(profileCommand.parse([], {})).toEqual({ help: true, status: EXIT_STATUS.usage });
    expectUsageError(() => profileCommand.parse(['rename', 'a'], {}), /unknown action/);
  });

  it('serve and summary report usage errors with the same code as the token commands', () => {
    expectUsageError(() => serveCommand.parse(['--port', 'x'], {}), /Invalid port/);
    expectUsageError(
      () => summaryCommand.parse(['--colour'], {}),
      /Run 'pipeline-summary summary --help'/,
    );
    expect(serveCommand.parse(['--help'], {})).toEqual({ help: true, status: 0 });
  });
});
