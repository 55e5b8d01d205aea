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
});
