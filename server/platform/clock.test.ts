import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';

describe('ManualClock', () => {
  it('fires timers in time order as it advances, and not after they are cancelled', () => {
    const clock = new ManualClock(1_000);
    const fired: string[] = [];
    clock.after(200, () => fired.push(`b@${clock.now()}`));
    clock.after(100, () => fired.push(`a@${clock.now()}`));
    const cancel = clock.after(150, () => fired.push('cancelled'));
    cancel();
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(200);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1_299);
    expect(clock.pendingTimers).toBe(0);
  });
});
