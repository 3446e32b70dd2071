// Host services for tests: the real offline embedder, extractive memo model and image store.
import { resolveModels } from '../../foundation/llm/models.ts';
import { createHostServices, type HostServices } from '../../sandbox/primitives/index.ts';

let shared: HostServices | undefined;

/** Offline services shared within one test file (the embedding model loads once). */
export function offlineServices(): HostServices {
  shared ??= createHostServices(resolveModels({}, {}));
  return shared;
}
