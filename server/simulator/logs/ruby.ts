// RSpec and RuboCop as they print in CI. RSpec's progress formatter: dots, then `Failures:` with
// numbered examples (`Failure/Error:` and the expectation's `expected: … got: …`, then the
// backtrace as `# ./spec/…_spec.rb:LINE:in `…'`), `Finished in …`, `N examples, M failures` and
// `Failed examples:` as `rspec ./spec/…_spec.rb:LINE # full description` (rspec-core,
// lib/rspec/core/formatters/base_text_formatter.rb and exception_presenter.rb). RuboCop's default
// (progress) formatter: `Offenses:`, `path:line:col: C: Cop/Name: message`, then
// `N files inspected, M offenses detected` (docs.rubocop.org, "Formatters").
import { defineFamily, type FailureWriters } from './family.ts';
import { secs } from './runner-text.ts';

/** Ruby jobs: RSpec and RuboCop. */
export const rubyFamily = defineFamily(['rspec', 'rubocop'], {
  setup() {
    return [
      {
        cmd: 'ruby --version',
        out: ['ruby 3.3.4 (2024-07-09 revision be1089c8ec) [x86_64-linux]'],
      },
      {
        cmd: 'bundle install --jobs 4 --retry 3',
        out: [
          'Fetching gem metadata from https://rubygems.org/..........',
          `Bundle complete! 48 Gemfile dependencies, 131 gems now installed.`,
          'Bundled gems are installed into `./vendor/bundle`',
        ],
      },
    ];
  },
  // `bundle install` cannot reach RubyGems (Bundler's HTTPError: "Could not reach host …").
  network() {
    return [
      'Could not reach host index.rubygems.org. Check your network connection and try again.',
    ];
  },
  main(tool, _ctx, rng) {
    switch (tool) {
      case 'rspec': {
        const n = rng.int(300, 1_400);
        const seed = rng.int(1_000, 65_535);
        return {
          cmd: 'bundle exec rspec --format progress --format RspecJunitFormatter --out rspec.xml',
          out: [
            `Randomized with seed ${seed}`,
            '\x1b[32m' + '.'.repeat(Math.min(120, Math.ceil(n / 10))) + '\x1b[0m',
            '',
            `Finished in ${secs(rng, 30, 240).slice(0, -1)} seconds (files took ${secs(rng, 2, 9).slice(0, -1)} seconds to load)`,
            `\x1b[32m${n} examples, 0 failures\x1b[0m`,
            '',
            `Randomized with seed ${seed}`,
          ],
        };
      }
      case 'rubocop': {
        const files = rng.int(120, 480);
        return {
          cmd: 'bundle exec rubocop --parallel',
          out: [
            `Inspecting ${files} files`,
            '.'.repeat(Math.min(120, files)),
            '',
            `${files} files inspected, \x1b[32mno offenses\x1b[0m detected`,
          ],
        };
      }
    }
  },
  lint(tool, spot) {
    if (tool !== 'rubocop') return undefined;
    const { rng, w, line, col } = spot;
    const files = rng.int(120, 480);
    return [
      `Inspecting ${files} files`,
      '.'.repeat(20) + '\x1b[33mC\x1b[0m' + '.'.repeat(30),
      '',
      'Offenses:',
      '',
      `app/models/${w}.rb:${line}:${col}: \x1b[33mC\x1b[0m: [Correctable] Style/StringLiterals: Prefer single-quoted strings when you don't need string interpolation or special symbols.`,
      `app/models/${w}.rb:${line + 14}:5: \x1b[33mC\x1b[0m: Metrics/AbcSize: Assignment Branch Condition size for total is too high. [<5, 21, 6> 22.41/17]`,
      '',
      `${files} files inspected, \x1b[31m2 offenses\x1b[0m detected, \x1b[33m1 offense\x1b[0m autocorrectable`,
    ];
  },
});

/** How Ruby jobs fail, by failure kind (a run with a JUnit report prints its report's tests). */
export const rubyFailures = {
  'rspec-failure'({ rng, w, line }) {
    const expected = rng.int(2, 90);
    const got = expected + rng.int(1, 9);
    const subject = w[0]!.toUpperCase() + w.slice(1);
    const description = `${subject}#total ${rng.pick(['applies the discount', 'rounds half to even', 'ignores cancelled items'])}`;
    return {
      early: false,
      exit: 'exit code 1',
      lines: [
        '',
        'Failures:',
        '',
        `  1) ${description}`,
        `     \x1b[31mFailure/Error: expect(${w}.total).to eq(${expected})\x1b[0m`,
        '',
        `     \x1b[31m  expected: ${expected}\x1b[0m`,
        `     \x1b[31m       got: ${got}\x1b[0m`,
        '',
        '     \x1b[31m  (compared using ==)\x1b[0m',
        `     \x1b[36m# ./spec/models/${w}_spec.rb:${line}:in \`block (3 levels) in <top (required)>'\x1b[0m`,
        '',
        `Finished in ${secs(rng, 30, 240).slice(0, -1)} seconds (files took ${secs(rng, 2, 9).slice(0, -1)} seconds to load)`,
        `\x1b[31m${rng.int(300, 1_400)} examples, 1 failure\x1b[0m`,
        '',
        'Failed examples:',
        '',
        `\x1b[31mrspec ./spec/models/${w}_spec.rb:${line - 2}\x1b[0m \x1b[36m# ${description}\x1b[0m`,
      ],
    };
  },
} satisfies FailureWriters;
