import { describe, expect, it } from 'vitest';
import { limitHeapGrowth, SERVICE_HEAP_GROWING_PERCENT } from './heap-growth.ts';

describe('limitHeapGrowth', () => {
  it('sets V8’s heap growing factor for the service', () => {
    const set: string[] = [];
    expect(limitHeapGrowth([], (f) => set.push(f))).toBe(true);
    expect(set).toEqual([`--heap-growing-percent=${SERVICE_HEAP_GROWING_PERCENT}`]);
  });

  it('leaves a factor given on Node’s command line alone', () => {
    const set: string[] = [];
    expect(limitHeapGrowth(['--heap-growing-percent=50'], (f) => set.push(f))).toBe(false);
    expect(limitHeapGrowth(['--inspect', '--heap_growing_percent=25'], (f) => set.push(f))).toBe(
      false,
    );
    expect(set).toEqual([]);
  });
});
