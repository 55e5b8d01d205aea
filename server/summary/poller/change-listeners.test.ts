import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../platform/logger.ts';
import { aPipeline, aProject } from '../testing/factories.ts';
import {
  observerTeller,
  PipelineChangeListeners,
  type PipelineChange,
} from './change-listeners.ts';

const change: PipelineChange = {
  project: aProject(),
  record: aPipeline({ status: 'failed' }),
  previousStatus: 'running',
  baseline: false,
};

describe('PipelineChangeListeners', () => {
  it('tells every listener, even after one throws, and stops telling one that unsubscribed', () => {
    const listeners = new PipelineChangeListeners(silentLogger);
    const heard: string[] = [];
    listeners.subscribe(() => {
      throw new Error('listener bug');
    });
    const unsubscribe = listeners.subscribe((changes) => heard.push(`a:${changes.length}`));
    listeners.subscribe((changes) => heard.push(`b:${changes.length}`));
    listeners.tell([change]);
    expect(heard).toEqual(['a:1', 'b:1']);
    unsubscribe();
    listeners.tell([change, change]);
    expect(heard).toEqual(['a:1', 'b:1', 'b:2']);
  });

  it('tells nobody about a cycle without changes', () => {
    const listeners = new PipelineChangeListeners(silentLogger);
    let calls = 0;
    listeners.subscribe(() => calls++);
    listeners.tell([]);
    expect(calls).toBe(0);
  });
});

describe('observerTeller', () => {
  it('calls the observer, and survives one that throws', () => {
    const deleted: number[] = [];
    const tell = observerTeller({ pipelineDeleted: (_p, id) => deleted.push(id) }, silentLogger);
    tell((o) => o.pipelineDeleted?.(1, 11));
    expect(deleted).toEqual([11]);
    const failing = observerTeller(
      {
        pipelineDeleted: () => {
          throw new Error('disk full');
        },
      },
      silentLogger,
    );
    expect(() => failing((o) => o.pipelineDeleted?.(1, 11))).not.toThrow();
  });

  it('does nothing without an observer', () => {
    let called = false;
    observerTeller(undefined, silentLogger)(() => (called = true));
    expect(called).toBe(false);
  });
});
