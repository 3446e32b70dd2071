// Environments by name, for the CLI and the search. A name may carry options after a colon:
// "visual:charts,mazes" is the visual environment with those families only; "web:shop,travel" the web one with those sites.
import type { ResolvedModels } from '../engine/llm/models.ts';
import type { ImageStore } from '../sandbox/primitives/images.ts';
import { LocomoEnvironment } from './locomo/environment.ts';
import type { Environment } from '../engine/environment/contract.ts';
import { taskEnvironment } from '../engine/environment/task-environment.ts';
import type { TaskEnvironmentSpec } from '../engine/environment/task-spec.ts';
import { definition as visualDefinition } from './visual/index.ts';
import { definition as webDefinition } from './web/index.ts';

export const ENVIRONMENTS = ['locomo', 'visual', 'web'] as const;
export type EnvName = (typeof ENVIRONMENTS)[number];

export interface EnvOptions {
  data?: string;
  seed?: number;
  models: ResolvedModels;
  /** The host's image store: environments with images put theirs here so programs can reach them by id. */
  images: ImageStore;
  /** Progress notes (episode collection, data warnings), for stderr. */
  onNote?: (message: string) => void;
}

export async function loadEnvironment(spec: string, options: EnvOptions): Promise<Environment> {
  const [name, arg] = spec.split(/:(.*)/s) as [string, string | undefined];
  switch (name) {
    case 'locomo':
      if (arg) throw new Error(`environment "locomo" takes no options (got "${spec}")`);
      return LocomoEnvironment.load({ models: options.models, ...(options.data ? { dataDir: options.data } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) });
    case 'visual':
    case 'web': {
      // Both are task specs (tasks, agent, checker) that the engine turns into an environment.
      const definition = name === 'visual' ? visualDefinition : webDefinition;
      const context = { models: options.models, images: options.images, seed: options.seed ?? 0, onNote: options.onNote ?? (() => {}), ...(arg ? { arg } : {}), ...(options.data ? { data: options.data } : {}) };
      return taskEnvironment(name, (await definition.load(context)) as TaskEnvironmentSpec<unknown>, context);
    }
    default:
      throw new Error(`unknown environment "${spec}"; available: ${ENVIRONMENTS.join(', ')} (visual:<family,...> for some visual families, web:<site,...> for some sites)`);
  }
}
