import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import { diagnose } from './diagnosis.ts';
import { formatFix } from './format-check.ts';

describe('formatter checks', () => {
  // Check and write modes as each tool documents them:
  // https://developer.hashicorp.com/terraform/cli/commands/fmt, https://prettier.io/docs/cli,
  // https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html,
  // https://docs.astral.sh/ruff/formatter/, https://pkg.go.dev/cmd/gofmt,
  // https://github.com/rust-lang/rustfmt#running-cargo-fmt,
  // https://learn.microsoft.com/dotnet/core/tools/dotnet-format,
  // https://hexdocs.pm/mix/Mix.Tasks.Format.html, https://clang.llvm.org/docs/ClangFormat.html.
  it.each([
    ['terraform fmt -check -recursive', 'terraform fmt -recursive'],
    ['terraform fmt -check -diff modules/', 'terraform fmt modules/'],
    ['npx prettier --check .', 'npx prettier --write .'],
    ['npx prettier -c "src/**/*.ts"', 'npx prettier --write "src/**/*.ts"'],
    ['black --check --diff src tests', 'black src tests'],
    ['ruff format --check src', 'ruff format src'],
    ['test -z "$(gofmt -l .)"', 'gofmt -w .'],
    ['cargo fmt --all -- --check', 'cargo fmt --all'],
    ['cargo fmt --check', 'cargo fmt'],
    ['dotnet format --verify-no-changes', 'dotnet format'],
    ['mix format --check-formatted', 'mix format'],
    ['clang-format --dry-run -Werror src/main.c', 'clang-format -i src/main.c'],
  ])('%s is fixed by %s', (check, write) => {
    expect(formatFix(check)).toBe(write);
  });

  it.each(['terraform fmt -recursive', 'npx prettier --write .', 'black src', 'cargo build'])(
    '%s is no check',
    (cmd) => expect(formatFix(cmd)).toBeUndefined(),
  );

  it('tells a failed `terraform fmt -check` to format and commit, naming the files', () => {
    const d = diagnose(
      distillLog(
        [
          '$ terraform fmt -check -recursive',
          'modules/s3-lifecycle/main.tf',
          'modules/s3-lifecycle/variables.tf',
          'ERROR: Job failed: exit code 3',
        ].join('\n'),
      ),
    );
    expect(d.evidence.map((e) => e.text)).toEqual([
      'modules/s3-lifecycle/main.tf',
      'modules/s3-lifecycle/variables.tf',
    ]);
    expect(d.nextSteps[0]).toBe(
      'The formatter’s check lists the files it would change (quoted above): run `terraform fmt -recursive` locally and commit the result.',
    );
    expect(d.nextSteps.join('\n')).not.toMatch(/Exit codes:/);
  });
});
