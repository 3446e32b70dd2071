// The memory an export ships: the program's update() over the environment's stored update episodes (the train
// split's worlds, in order, each episode at its virtual time), exactly as a search builds a memory before its
// retrieve phase, but into one memory for all worlds. The environment is the one the run recorded, opened by the
// caller (api/export.ts, through the registry); its update episodes come from the episode store, so no agent runs.
import type { Environment } from '../engine/environment/contract.ts';
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
  ms: number;
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
      const updateErrors: string[] = [];
      let count = 0;
      for (const world of worlds) {
        for (const [i, episode] of world.episodes.entries()) {
          try {
            await memory.update(episode, { time: world.episodeTimes?.[i] ?? DEFAULT_TIME + count * 1000 });
          } catch (err) {
            // As in evaluation, a failing update is recorded and the memory goes on; a dead sandbox ends the export.
            updateErrors.push(`${episode.taskId}: ${(err as Error).message}`);
            if (!memory.alive) throw err;
          }
          count++;
        }
      }
      await memory.save(dir);
      const stats = await memory.stats();
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
        ms: Math.round(performance.now() - started),
      };
    } finally {
      await memory.close();
    }
  } finally {
    await env.close?.();
  }
}
