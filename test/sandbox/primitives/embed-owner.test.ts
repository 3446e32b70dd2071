// The owner's book of time spent waiting on others' work: what the watchdog reads before blaming a program.
import { describe, expect, it } from 'vitest';
import { EmbedCancelledError, EmbedOwner } from '../../../sandbox/primitives/embed-owner.ts';

describe('embed owner', () => {
  it('books foreign wait at the share of the pool others hold, over any window', () => {
    const o = new EmbedOwner();
    o.setForeignRate(1000, 1); // the whole pool busy with others
    o.setForeignRate(2000, 0.5); // one of two workers is ours
    o.setForeignRate(3000, 0); // nothing queued
    expect(o.foreignWaitMs(0, 5000)).toBe(1500);
    expect(o.foreignWaitMs(1500, 2500)).toBe(750);
    expect(o.foreignWaitMs(3000, 9000)).toBe(0);
    o.setForeignRate(10_000, 1);
    // Still waiting: counted up to the moment asked.
    expect(o.foreignWaitMs(9000, 10_400)).toBe(400);
  });

  it('keeps long books bounded without losing their totals', () => {
    const o = new EmbedOwner();
    for (let i = 0; i < 10_000; i++) o.setForeignRate(i * 10, i % 2);
    o.setForeignRate(100_000, 0);
    // Half of every 10 ms from 0 to 100,000 was foreign.
    expect(o.foreignWaitMs(0, 100_000)).toBeCloseTo(50_000, -2);
    expect(o.foreignWaitMs(90_000, 100_000)).toBeCloseTo(5000, -1);
  });

  it('runs its close handlers once, and at once for late ones', () => {
    const o = new EmbedOwner();
    let n = 0;
    o.whenClosed(() => n++);
    o.close();
    o.close();
    o.whenClosed(() => n++);
    expect(n).toBe(2);
    expect(o.signal.aborted).toBe(true);
    expect(o.signal.reason).toBeInstanceOf(EmbedCancelledError);
  });
});
