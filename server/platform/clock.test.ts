import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';

describe('ManualClock timers', () => {
  it('fires timers in time order when moved past them, and never once cancelled', () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    clock.after(300, () => fired.push('b'));
    clock.after(100, () => fired.push('a'));
    const cancel = clock.after(200, () => fired.push('cancelled'));
    cancel();
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(150);
    expect(fired).toEqual(['a']);
    clock.set(300);
    expect(fired).toEqual(['a', 'b']);
  });
  it('moves the clock to each timer as it fires, and reports what is pending', () => {
    const clock = new ManualClock(1_000);
    const fired: string[] = [];
    clock.after(200, () => fired.push(`b@${clock.now()}`));
    clock.after(100, () => fired.push(`a@${clock.now()}`));
    expect(clock.pendingTimers).toBe(2);
    clock.advance(299);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1_299);
    expect(clock.pendingTimers).toBe(0);
  });
});
