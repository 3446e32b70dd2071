// Each standard design's exact form — a program of automemo/lib's stages (memo-programs/forms/) — gives the same
// payloads as the design, task by task, through the real evaluator: on a LoCoMo conversation, a visual family, a web
// site (real Chromium; the visual and web agents are slow and not run: payloads are compared), a data file and a
// module benchmark whose feedback lives in the outcome's note. Where the agents run (LoCoMo, data, module) the scores
// are equal too; the agents are deterministic, so equal payloads mean equal scores everywhere.
// One known exception: Bm25Index returns a document twice when a query word is in exactly half the documents (its idf
// is 0, and the document is counted as new again); the bm25 baseline then shows that step twice, while a pipeline's
// fusion counts it once. The form is held to showing the design's payload except for such repeats.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../api/environments.ts';
import type { Environment } from '../../engine/environment/contract.ts';
import { taskEnvironment } from '../../engine/environment/task-environment.ts';
import { EpisodeStore } from '../../engine/evaluate/episode-store.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { LocomoEnvironment } from '../../envs/locomo/environment.ts';
import { visualSpec } from '../../envs/visual/environment.ts';
import { webSpec } from '../../envs/web/environment.ts';
import { DESIGN_FORMS, formOf, resolveProgram, STANDARD_DESIGNS } from '../../memo-programs/registry.ts';
import { closeHostServices } from '../../sandbox/primitives/index.ts';
import { Bm25Index } from '../../memo-programs/lib/bm25.ts';
import { stepText } from '../../memo-programs/lib/units.ts';
import { differences, meanReward, partOf, payloadsOf } from '../support/payloads.ts';
import { offlineServices } from '../support/services.ts';

const dir = mkdtempSync(join(tmpdir(), 'forms-'));

/** The tasks for which the bm25 baseline's index, built as the baseline builds it, returns some step twice. */
async function bm25Repeats(env: Environment): Promise<Set<string>> {
  const out = new Set<string>();
  for (const world of await env.worlds('train')) {
    const index = new Bm25Index();
    for (const ep of world.episodes) for (const s of ep.steps) index.add(`${ep.taskId}#${s.index}`, `${stepText(s)} ${ep.instruction}`);
    for (const t of world.tasks) {
      const ids = index.search(t.instruction, 40).map((h) => h.id);
      if (new Set(ids).size < ids.length) out.add(t.taskId);
    }
  }
  return out;
}
const models = resolveModels({}, {});
const envs: { name: string; env: Environment; scored: boolean }[] = [];
const opened: Environment[] = [];

beforeAll(async () => {
  const services = offlineServices();
  const store = (name: string) => ({ seed: 0, images: services.images, episodeStore: new EpisodeStore(join(dir, name)) });
  const note = () => undefined;
  envs.push({ name: 'locomo', env: partOf(LocomoEnvironment.load({ models }), { episodes: 6, tasks: 6 }), scored: true });
  const visual = taskEnvironment('visual', visualSpec({ models, images: services.images, families: ['charts'], instances: 3, trainShare: 0.67 }), store('visual'));
  envs.push({ name: 'visual:charts', env: partOf(visual, { episodes: 6, tasks: 4, agent: false }), scored: false });
  const web = taskEnvironment('web', webSpec({ models, sites: ['shop'], instances: 3, trainShare: 0.67 }), store('web'));
  opened.push(web);
  envs.push({ name: 'web:shop', env: partOf(web, { episodes: 5, tasks: 4, agent: false }), scored: false });
  const data = await openNamed(`data:${join(repoRoot, 'examples', 'qa-data', 'team-notes.jsonl')}`, { models, images: services.images, seed: 0, onNote: note });
  envs.push({ name: 'data (team-notes)', env: partOf(data.env, { episodes: 8, tasks: 6 }), scored: true });
  const desk = await openNamed(`${join(repoRoot, 'bench', 'benchmarks', 'help-desk.ts')}:6`, { models, images: services.images, seed: 0, onNote: note });
  envs.push({ name: 'module (help-desk)', env: partOf(desk.env, { episodes: 16, tasks: 8 }), scored: true });
}, 240_000);

afterAll(async () => {
  for (const e of opened) await e.close?.();
  await closeHostServices();
  rmSync(dir, { recursive: true, force: true });
});

describe('exact forms of the standard designs', { timeout: 240_000 }, () => {
  it('exist for every standard design: a pipeline form, or (Omni-SimpleMem) the design edited through its config', () => {
    expect(Object.keys(DESIGN_FORMS).sort()).toEqual([...STANDARD_DESIGNS].sort());
    expect(formOf('pipeline')?.path).toBe(resolveProgram('pipeline').path);
    expect(formOf('omni-simplemem')).toMatchObject({ edit: 'config', path: resolveProgram('omni-simplemem').path });
    expect(formOf('no-memory')).toBeUndefined();
  });

  const pipelines = Object.values(DESIGN_FORMS).filter((f) => f.edit === 'pipeline' && f.design !== 'pipeline');
  it.each(pipelines.map((f) => [f.design, f.path]))('%s: the form gives the design\'s payloads on every environment, and its scores', async (design, form) => {
    const services = offlineServices();
    for (const { name, env, scored } of envs) {
      const part = { split: 'train' as const };
      const a = await payloadsOf(resolveProgram(design).path, env, services, part);
      const b = await payloadsOf(form, env, services, part);
      expect(a.size, `${design} on ${name}: tasks`).toBeGreaterThan(0);
      const repeats = design === 'bm25' ? await bm25Repeats(env) : new Set<string>();
      expect(differences(a, b).filter((d) => !repeats.has(d.taskId)), `${design} on ${name}`).toEqual([]);
      if (scored) expect(Math.abs(meanReward(a) - meanReward(b)), `${design} on ${name}: score`).toBeLessThanOrEqual(0.005);
    }
  });
});
