import { defineFamily, type FailureWriters } from './family.ts';
import { BOLD, PLAIN, secs } from './runner-text.ts';

/** Rust jobs: cargo build, cargo test, clippy. */
export const rustFamily = defineFamily(['cargo-build', 'cargo-test', 'clippy'], {
  setup(_tool, _ctx, rng) {
    return [
      {
        cmd: 'rustc --version && cargo --version',
        out: ['rustc 1.79.0 (129f3b996 2024-06-10)', 'cargo 1.79.0 (ffa9cf99a 2024-06-03)'],
      },
      {
        cmd: 'cargo fetch --locked',
        out: [
          `${BOLD}\x1b[32m    Updating${PLAIN} crates.io index`,
          `${BOLD}\x1b[32m  Downloaded${PLAIN} ${rng.int(140, 320)} crates (${rng.float(12, 60).toFixed(1)} MB) in ${secs(rng, 2, 9)}s`,
        ],
      },
    ];
  },
  // `cargo fetch` cannot reach the index: cargo's error with its "Caused by:" chain ending in
  // curl's own words (cargo's sparse registry reads config.json first).
  network() {
    return [
      `${BOLD}\x1b[31merror${PLAIN}: failed to download from \`https://index.crates.io/config.json\``,
      '',
      'Caused by:',
      "  [6] Couldn't resolve host name (Could not resolve host: index.crates.io)",
    ];
  },
  // libtest warns about each test still running after a minute (`test x has been running for
  // over 60 seconds`): what a hung suite prints.
  fillerLine(tool, { w, i }) {
    return tool === 'cargo-test'
      ? `test ${w}::tests::case_${i} has been running for over 60 seconds`
      : undefined;
  },
  main(tool, ctx, rng) {
    const p = ctx.project;
    switch (tool) {
      case 'cargo-build': {
        const out: string[] = [];
        for (const c of [
          'libc v0.2.155',
          'proc-macro2 v1.0.86',
          'serde v1.0.204',
          'tokio v1.38.0',
          'tantivy v0.22.0',
          `${p.path} v0.${rng.int(3, 30)}.0 (/builds/${p.fullPath})`,
        ]) {
          out.push(`${BOLD}\x1b[32m   Compiling${PLAIN} ${c}`);
        }
        out.push(
          `${BOLD}\x1b[32m    Finished${PLAIN} \`release\` profile [optimized] target(s) in ${rng.int(1, 6)}m ${rng.int(0, 59)}s`,
        );
        return { cmd: 'cargo build --release --locked', out };
      }
      case 'cargo-test': {
        const n = rng.int(40, 220);
        return {
          cmd: 'cargo test --locked --all-features',
          out: [
            `${BOLD}\x1b[32m    Finished${PLAIN} \`test\` profile [unoptimized + debuginfo] target(s) in ${rng.int(40, 200)}.${rng.int(10, 99)}s`,
            `${BOLD}\x1b[32m     Running${PLAIN} unittests src/lib.rs (target/debug/deps/${p.path.replace(/-/g, '_')}-${rng.hex(16)})`,
            '',
            `running ${n} tests`,
            `test result: \x1b[32mok\x1b[0m. ${n} passed; 0 failed; ${rng.int(0, 3)} ignored; 0 measured; 0 filtered out; finished in ${secs(rng, 0.5, 30).slice(0, -1)}s`,
          ],
        };
      }
      case 'clippy':
        return {
          cmd: 'cargo clippy --all-targets --locked -- -D warnings',
          out: [
            `${BOLD}\x1b[32m    Checking${PLAIN} ${p.path} v0.${rng.int(3, 30)}.0 (/builds/${p.fullPath})`,
            `${BOLD}\x1b[32m    Finished${PLAIN} \`dev\` profile [unoptimized + debuginfo] target(s) in ${rng.int(20, 90)}.${rng.int(10, 99)}s`,
          ],
        };
    }
  },
  lint(tool, spot) {
    const { w, line, col } = spot;
    const p = spot.ctx.project;
    switch (tool) {
      case 'clippy':
        return [
          '\x1b[0m\x1b[1m\x1b[38;5;9merror\x1b[0m\x1b[0m\x1b[1m: this `if` has identical blocks\x1b[0m',
          `\x1b[0m   \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m--> \x1b[0m\x1b[0msrc/${w}.rs:${line}:${col}\x1b[0m`,
          '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m= \x1b[0m\x1b[0m\x1b[1mhelp\x1b[0m\x1b[0m: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else\x1b[0m',
          '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m= \x1b[0m\x1b[0m\x1b[1mnote\x1b[0m\x1b[0m: `-D clippy::if-same-then-else` implied by `-D warnings`\x1b[0m',
          '',
          `\x1b[0m\x1b[1m\x1b[38;5;9merror\x1b[0m\x1b[0m\x1b[1m: could not compile \`${p.path}\` (lib) due to 1 previous error\x1b[0m`,
        ];
      default:
        return undefined;
    }
  },
});

/** How Rust jobs fail, by failure kind. */
export const rustFailures = {
  'rust-compile'({ w, line, col, ctx }) {
    const p = ctx.project;
    const file = `src/${w}.rs`;
    return {
      early: false,
      exit: 'exit code 1',
      lines: [
        `${BOLD}\x1b[32m   Compiling${PLAIN} ${p.path} v0.14.0 (/builds/${p.fullPath})`,
        `\x1b[0m\x1b[1m\x1b[38;5;9merror[E0308]\x1b[0m\x1b[0m\x1b[1m: mismatched types\x1b[0m`,
        `\x1b[0m   \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m--> \x1b[0m\x1b[0m${file}:${line}:${col}\x1b[0m`,
        '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m|\x1b[0m',
        `\x1b[0m\x1b[1m\x1b[38;5;12m${line}\x1b[0m\x1b[0m \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m|\x1b[0m\x1b[0m \x1b[0m\x1b[0m        self.flush(batch_size)?;\x1b[0m`,
        '\x1b[0m    \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m|\x1b[0m\x1b[0m             \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;12m-----\x1b[0m\x1b[0m \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;9m^^^^^^^^^^\x1b[0m\x1b[0m \x1b[0m\x1b[0m\x1b[1m\x1b[38;5;9mexpected `usize`, found `u32`\x1b[0m',
        '',
        `\x1b[0m\x1b[1m\x1b[38;5;9merror\x1b[0m\x1b[0m\x1b[1m: could not compile \`${p.path}\` (lib) due to 1 previous error\x1b[0m`,
      ],
    };
  },
} satisfies FailureWriters;
