import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError } from './errors.ts';
import { readSecret, readStdin, type CliIo } from './io.ts';

/** Streams around a given stdin, recording stderr. */
function ioWith(stdin: CliIo['stdin']): CliIo & { err: () => string } {
  let err = '';
  return {
    stdout: { write: () => true },
    stderr: { write: (t: string) => (err += t) },
    stdin,
    env: {},
    err: () => err,
  };
}

/** A piped stdin holding `chunks`. */
const piped = (...chunks: Buffer[]) => Readable.from(chunks, { objectMode: false });

/** A terminal stdin in raw mode, noting each setRawMode call. */
function terminal() {
  const stdin = new PassThrough() as PassThrough & {
    isTTY: boolean;
    setRawMode: (raw: boolean) => void;
    rawModes: boolean[];
  };
  stdin.isTTY = true;
  stdin.rawModes = [];
  stdin.setRawMode = (raw) => void stdin.rawModes.push(raw);
  return stdin;
}

describe('readStdin', () => {
  it('reads every chunk as UTF-8, a character split across chunks included', async () => {
    const text = Buffer.from('profiles: ✓ wörter\n', 'utf8');
    const split = text.indexOf(Buffer.from('✓')) + 1;
    expect(await readStdin(ioWith(piped(text.subarray(0, split), text.subarray(split))))).toBe(
      'profiles: ✓ wörter\n',
    );
  });
});

describe('readSecret', () => {
  it('takes piped stdin whole, dropping one trailing newline only', async () => {
    expect(await readSecret(ioWith(piped(Buffer.from('s3cret\r\n'))), 'Token: ')).toBe('s3cret');
    expect(await readSecret(ioWith(piped(Buffer.from('two\nlines\n\n'))))).toBe('two\nlines\n');
  });

  it('refuses an empty secret as a usage error', async () => {
    const err = await readSecret(ioWith(piped(Buffer.from('\n')))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({ code: 'usage', message: 'no secret given (empty input)' });
  });

  it('on a terminal with a prompt: masks each character, honours backspace, ends at Enter', async () => {
    const stdin = terminal();
    const io = ioWith(stdin);
    const secret = readSecret(io, "Client secret for 'svc': ");
    stdin.write('abx\u007fc\r');
    expect(await secret).toBe('abc');
    expect(io.err()).toBe("Client secret for 'svc': ***\b \b*\n");
    expect(stdin.rawModes).toEqual([true, false]);
  });

  it('on a terminal, Ctrl-C cancels; without a prompt the terminal is read as stdin', async () => {
    const stdin = terminal();
    const cancelled = readSecret(ioWith(stdin), 'Passphrase: ').catch((e: unknown) => e);
    stdin.write('ab\u0003');
    expect(await cancelled).toMatchObject({ code: 'general', message: 'cancelled' });

    const typed = terminal();
    const secret = readSecret(ioWith(typed));
    typed.end('from the terminal\n');
    expect(await secret).toBe('from the terminal');
    expect(typed.rawModes).toEqual([]);
  });
});
