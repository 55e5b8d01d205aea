// Timing short-lived processes against `node -e 0` in the same run: wall time per process and the
// CPU time of the children, summed per case (per run it has 10 ms steps, the sum over 15 does not).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU time (user + system, ms) of the children this process has waited for, from /proc. */
function childrenCpuMs(): number | undefined {
  try {
    // Fields 16 and 17 after the command name: cutime, cstime, in clock ticks (100 Hz on Linux).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** Wall times and summed CPU of process runs, by case label. */
export class ProcessTimer {
  private readonly cpu = new Map<string, number>();
  readonly wall = new Map<string, number[]>();

  /** Runs `node …args` once, records it under `label` and returns its wall time (ms). */
  time(args: string[], env: NodeJS.ProcessEnv, label = args.join(' ')): number {
    const cpuBefore = childrenCpuMs();
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuAfter = childrenCpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      this.cpu.set(label, (this.cpu.get(label) ?? 0) + cpuAfter - cpuBefore);
    }
    if (child.status !== 0) {
      throw new Error(
        `${args.join(' ')} exited ${child.status}: ${child.stderr.toString().trim()}`,
      );
    }
    const samples = this.wall.get(label) ?? [];
    samples.push(ms);
    this.wall.set(label, samples);
    return ms;
  }

  /** "; CPU 1.08×": the case's summed CPU against the baseline's, or '' without /proc. */
  cpuRatio(label: string, baseline: string): string {
    const base = this.cpu.get(baseline);
    const cpu = this.cpu.get(label);
    return base && cpu !== undefined ? `; CPU ${(cpu / base).toFixed(2)}×` : '';
  }
}
