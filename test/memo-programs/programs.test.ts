// Every named program passes quick examination, on the built-in samples and on LoCoMo's own (4,000-char budget).
import { afterAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../engine/llm/models.ts';
import { LOCOMO_BUDGET, LocomoEnvironment } from '../../envs/locomo/environment.ts';
import { PROGRAMS } from '../../memo-programs/registry.ts';
import { closeHostServices } from '../../sandbox/primitives/index.ts';
import { quickExam } from '../../sandbox/quick-exam.ts';
import { offlineServices } from '../support/services.ts';

afterAll(() => closeHostServices());

describe('named programs', () => {
  it.each(PROGRAMS.map((p) => [p.name, p.path]))('%s passes quick examination on the built-in and LoCoMo samples', async (_name, path) => {
    const builtin = await quickExam({ entryPath: path }, { services: offlineServices() });
    expect(builtin.checks.filter((c) => !c.ok)).toEqual([]);
    const env = LocomoEnvironment.load({ models: resolveModels({}, {}) });
    const locomo = await quickExam({ entryPath: path }, { services: offlineServices(), samples: await env.samples(5), budget: LOCOMO_BUDGET });
    expect(locomo.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
