import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDuration,
  rateBand,
  secondsAgo,
  sourceLabel,
  statusKind,
  timeAgo,
} from './format.ts';
import { describeSince } from './since.ts';

describe('formatters', () => {
  it('formats durations compactly', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(125)).toBe('2m 5s');
    expect(formatDuration(3600)).toBe('1h');
    expect(formatDuration(3725)).toBe('1h 2m');
    expect(formatDuration(90_000)).toBe('1d 1h');
  });

  it('formats byte sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KiB');
    expect(formatBytes(4 * 1024 * 1024)).toBe('4.0 MiB');
    expect(formatBytes(39_007_027)).toBe('37.2 MiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  });

  it('says how long ago', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(timeAgo('2026-03-10T11:59:50Z', now)).toBe('just now');
    expect(timeAgo('2026-03-10T11:55:00Z', now)).toBe('5m ago');
    expect(timeAgo('2026-03-10T09:00:00Z', now)).toBe('3h ago');
    expect(timeAgo('2026-03-07T12:00:00Z', now)).toBe('3d ago');
    expect(timeAgo(null, now)).toBe('—');
  });

  it('bands success rates and groups statuses like the summariser', () => {
    expect(rateBand(95, 10)).toBe('good');
    expect(rateBand(75, 10)).toBe('fair');
    expect(rateBand(10, 10)).toBe('poor');
    expect(rateBand(0, 0)).toBe('none');
    expect(statusKind('waiting_for_resource')).toBe('running');
    expect(statusKind('scheduled')).toBe('manual');
  });
});

describe('since', () => {
  it('describes a window in words (the rule itself is the service’s: server/summary/since.test.ts)', () => {
    expect(describeSince('1h')).toBe('1 hour');
    expect(describeSince('30d')).toBe('30 days');
  });
});

describe('words shown alike in every view (issue 30)', () => {
  it('spells pipeline sources one way', () => {
    expect(sourceLabel('merge_request_event')).toBe('merge request');
    expect(sourceLabel('parent_pipeline')).toBe('parent pipeline');
    expect(sourceLabel('push')).toBe('push');
  });

  it('counts seconds since something that just happened', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(secondsAgo(now.getTime() - 8_000, now)).toBe('8s ago');
    expect(secondsAgo(now.getTime() - 5 * 60_000, now)).toBe('5m ago');
  });
});
