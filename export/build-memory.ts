// The memory an export ships: the program's update() over the environment's stored update episodes (the train
// split's worlds, in order, each episode at its virtual time), exactly as a search builds a memory before its
// retrieve phase, but into one memory for all worlds. The environment is the one the run recorded, opened by the
// caller (api/export.ts, through the registry); its update episodes come from the episode store, so no agent runs.
// A search scores a program with one memory per world; where there are several, the memory shipped holds them all,
// so its own score on the same validation tasks is measured too (the same program, episodes, order, times and seed
// rebuild it in an evaluation with every world's episodes and tasks in one), and both are recorded and stated.
import type { Environment, World } from '../engine/environment/contract.ts';
import { evaluateProgram } from '../engine/evaluate/evaluate.ts';
import { createHostServices } from '../sandbox/primitives/index.ts';
import type { ResolvedModels } from '../foundation/llm/models.ts';
import type { CompiledProgram } from '../sandbox/compile.ts';
import { createTextEmbedder } from '../sandbox/primitives/embed.ts';
import { ImageStore } from '../sandbox/primitives/images.ts';
import type { RunInfo } from '../run-store/run-folder.ts';
import { openMemory } from './runtime/memory.ts';
import { seedsOf } from '../engine/search/run-options.ts';

export interface BuiltMemory {
  episodes: number;
  worlds: { id: string; episodes: number }[];
  updateErrors: string[];
  models: { embed: string; memo: string };
  /** The embedder its vectors came from (EMBED_BACKENDS' ids offline). */
  embedderId: string;
  budget: { maxChars: number; maxImages: number };
  reward: string;
  mode: string;
  kv: { keys: number; bytes: number };
  vectors: { handle: number; size: number }[];
  /** A retrieve task of the environment, for the package's README. */
  exampleTask?: string;
  /** Which episodes the memory holds, against how the search scored the program, in a sentence. */
  scope: string;
  /** The memory as shipped on the run's validation tasks; absent when it is the memory the search scored (one world). */
  shipped?: ShippedScore;
  ms: number;
}

/** What the shipped memory (every world's update episodes in one) scores on the validation tasks of every world. */
export interface ShippedScore {
  /** Mean reward; null when not measured (`note` says why) or nothing could be scored. */
  validation: number | null;
  tasks: number;
  note?: string;
}

/** Virtual time of episodes whose world gives none: the sandbox's default clock start, a second apart. */
const DEFAULT_TIME = Date.UTC(2024, 0, 1);

const modelOption = (m: ResolvedModels['memo']) =>
  m ? { model: m.model, ...(m.baseURL ? { baseURL: m.baseURL } : {}), ...(m.apiKey ? { apiKey: m.apiKey } : {}), ...(m.timeoutMs ? { timeoutMs: m.timeoutMs } : {}) } : null;

/** Opens the environment a run recorded, with its images going into `images`. */
export type RunEnvOpener = (run: RunInfo, images: ImageStore, models: ResolvedModels) => Promise<Environment>;

export async function buildMemory(program: CompiledProgram, node: string, run: RunInfo, models: ResolvedModels, dir: string, openEnv: RunEnvOpener): Promise<BuiltMemory> {
  const started = performance.now();
  const images = new ImageStore();
  const env = await openEnv(run, images, models);
  const seed = seedsOf(run.options).sandbox;
  try {
    const info = env.info();
    const embedder = createTextEmbedder(models.embedding);
    const memory = await openMemory(
      { program, node, env: info.name, budget: info.budget, seed, builtIn: null, innerEmbedder: embedder, images },
      { fresh: true, seed, models: { memo: modelOption(models.memo), embedding: modelOption(models.embedding) } },
    );
    try {
      const worlds = await env.worlds('train');
      const shipped = oneWorld(worlds);
      const updateErrors: string[] = [];
      for (const [i, episode] of shipped.episodes.entries()) {
        try {
          await memory.update(episode, { time: shipped.episodeTimes?.[i] as number });
        } catch (err) {
          // As in evaluation, a failing update is recorded and the memory goes on; a dead sandbox ends the export.
          updateErrors.push(`${episode.taskId}: ${(err as Error).message}`);
          if (!memory.alive) throw err;
        }
      }
      await memory.save(dir);
      const stats = await memory.stats();
      const score = worlds.length > 1 ? await shippedScore(program, env, shipped, models, images, seed) : undefined;
      return {
        episodes: stats.episodes,
        worlds: worlds.map((w) => ({ id: w.id, episodes: w.episodes.length })),
        updateErrors,
        models: stats.models,
        embedderId: embedder.id,
        budget: info.budget,
        reward: info.reward,
        mode: info.mode,
        kv: stats.kv,
        vectors: stats.vectors,
        ...(worlds[0]?.tasks[0] ? { exampleTask: worlds[0].tasks[0].instruction } : {}),
        scope:
          worlds.length > 1
            ? `the update episodes of all ${worlds.length} worlds in one memory (the search scored one memory per world)`
            : 'the update episodes of its one world: the memory the search scored',
        ...(score ? { shipped: score } : {}),
        ms: Math.round(performance.now() - started),
      };
    } finally {
      await memory.close();
    }
  } finally {
    await env.close?.();
  }
}

/** Every world's update episodes (in order, at their times) and validation tasks (at theirs) as one world. */
function oneWorld(worlds: World[]): World {
  const episodeTimes: number[] = [];
  const taskTimes = new Map<string, number>();
  for (const w of worlds) {
    for (const i of w.episodes.keys()) episodeTimes.push(w.episodeTimes?.[i] ?? DEFAULT_TIME + episodeTimes.length * 1000);
    for (const t of w.tasks) {
      const at = w.taskTimes?.get(t.taskId) ?? w.retrieveTime;
      if (at !== undefined) taskTimes.set(t.taskId, at);
    }
  }
  return { id: 'shipped', episodes: worlds.flatMap((w) => w.episodes), episodeTimes, tasks: worlds.flatMap((w) => w.tasks), taskTimes };
}

/**
 * The shipped memory's score on the validation tasks: the program evaluated with every world in one, as it was
 * built. An agent that is a model is not run at export (it costs): the note says how to measure it.
 */
async function shippedScore(program: CompiledProgram, env: Environment, world: World, models: ResolvedModels, images: ImageStore, seed: number): Promise<ShippedScore> {
  const info = env.info();
  if (info.mode === 'model') return { validation: null, tasks: world.tasks.length, note: 'not measured at export: the agent is a model' };
  const one: Environment = {
    info: () => info,
    worlds: async () => [world],
    run: (task, payload) => env.run(task, payload),
    samples: (count) => env.samples(count),
    scenario: (taskId) => env.scenario(taskId),
  };
  const result = await evaluateProgram(program, { env: one, split: 'train', services: createHostServices(models, images), seed });
  return { validation: result.score, tasks: result.stats.scored };
}
