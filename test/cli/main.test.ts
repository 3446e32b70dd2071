// The CLI's entry run many times in one process (the tests do; so may a host): its guard against stray rejections
// is installed once, so Node never warns of a listener leak.
import { describe, expect, it } from 'vitest';
import { automemoInProcess } from '../support/cli.ts';

describe('automemo main', () => {
  it('adds its unhandledRejection listener once, however many commands run', async () => {
    await automemoInProcess('--help');
    const before = process.listenerCount('unhandledRejection');
    for (let i = 0; i < 12; i++) expect((await automemoInProcess('--help')).code).toBe(0);
    expect(process.listenerCount('unhandledRejection')).toBe(before);
  });

  it('names the command a near miss meant, and lists them all when nothing is near', async () => {
    const near = await automemoInProcess('serach', '--env', 'locomo');
    expect([near.code, near.err]).toEqual([2, 'automemo: unknown command "serach" (did you mean "search"?)\n']);
    const far = await automemoInProcess('xyzzy');
    expect(far.code).toBe(2);
    expect(far.err).toContain('unknown command "xyzzy"');
    expect(far.err).toContain('Commands:');
  });
});
