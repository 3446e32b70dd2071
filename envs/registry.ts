// Environments by name, for the CLI and the search. A name may carry options after a colon:
// "visual:charts,mazes" is the visual environment with those families only; "web:shop,travel" the web one with those sites.
import type { ResolvedModels } from '../engine/llm/models.ts';
import type { ImageStore } from '../sandbox/primitives/images.ts';
import { LocomoEnvironment } from './locomo/environment.ts';
import type { Environment } from '../engine/environment/contract.ts';
import { VisualEnvironment } from './visual/environment.ts';
import { WebEnvironment } from './web/environment.ts';

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
      if (options.data) throw new Error('environment "visual" renders its own tasks; --data is not used (choose families with --env visual:charts,mazes)');
      return VisualEnvironment.load({
        models: options.models,
        images: options.images,
        ...(arg ? { families: arg.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.onNote ? { onNote: options.onNote } : {}),
      });
    case 'web':
      if (options.data) throw new Error('environment "web" serves its own sites; --data is not used (choose sites with --env web:shop,travel)');
      return WebEnvironment.load({
        models: options.models,
        images: options.images,
        ...(arg ? { sites: arg.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.onNote ? { onNote: options.onNote } : {}),
      });
    default:
      throw new Error(`unknown environment "${spec}"; available: ${ENVIRONMENTS.join(', ')} (visual:<family,...> for some visual families, web:<site,...> for some sites)`);
  }
}
