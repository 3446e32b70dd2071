// Every named program passes quick examination: on the built-in samples, on LoCoMo's own (4,000-char budget) and on
// the visual environment's (episodes with images and tool calls).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EpisodeStore } from '../../engine/evaluate/episode-store.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { LOCOMO_BUDGET, LocomoEnvironment } from '../../envs/locomo/environment.ts';
import { taskEnvironment } from '../../engine/environment/task-environment.ts';
import { visualSpec } from '../../envs/visual/environment.ts';
import { PROGRAMS } from '../../memo-programs/registry.ts';
import { closeHostServices } from '../../sandbox/primitives/index.ts';
import { quickExam, type QuickExamOptions } from '../../sandbox/quick-exam.ts';
import { offlineServices } from '../support/services.ts';

const dir = mkdtempSync(join(tmpdir(), 'programs-'));
let visual: QuickExamOptions['samples'];
beforeAll(async () => {
  const images = offlineServices().images;
  const env = taskEnvironment('visual', visualSpec({ models: resolveModels({}, {}), images, families: ['scenes', 'mazes'], instances: 10 }), { seed: 0, images, episodeStore: new EpisodeStore(dir) });
  visual = await env.samples(5);
});
afterAll(async () => {
  await closeHostServices();
  rmSync(dir, { recursive: true, force: true });
});

describe('named programs', () => {
  it.each(PROGRAMS.map((p) => [p.name, p.path]))('%s passes quick examination on the built-in, LoCoMo and visual samples', async (_name, path) => {
    const builtin = await quickExam({ entryPath: path }, { services: offlineServices() });
    expect(builtin.checks.filter((c) => !c.ok)).toEqual([]);
    const env = LocomoEnvironment.load({ models: resolveModels({}, {}) });
    const locomo = await quickExam({ entryPath: path }, { services: offlineServices(), samples: await env.samples(5), budget: LOCOMO_BUDGET });
    expect(locomo.checks.filter((c) => !c.ok)).toEqual([]);
    const onVisual = await quickExam({ entryPath: path }, { services: offlineServices(), ...(visual ? { samples: visual } : {}) });
    expect(onVisual.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
