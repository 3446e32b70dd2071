// Environments by name, for the CLI and the search.
import type { ResolvedModels } from '../engine/llm/models.ts';
import { LocomoEnvironment } from './locomo/environment.ts';
import type { Environment } from './types.ts';

export const ENVIRONMENTS = ['locomo'] as const;
export type EnvName = (typeof ENVIRONMENTS)[number];

export interface EnvOptions {
  data?: string;
  seed?: number;
  models: ResolvedModels;
}

export async function loadEnvironment(name: string, options: EnvOptions): Promise<Environment> {
  switch (name) {
    case 'locomo':
      return LocomoEnvironment.load({ models: options.models, ...(options.data ? { dataDir: options.data } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) });
    default:
      throw new Error(`unknown environment "${name}"; available: ${ENVIRONMENTS.join(', ')}`);
  }
}
