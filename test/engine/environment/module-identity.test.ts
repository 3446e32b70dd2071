// An environment module inside a folder whose tsconfig maps `automemo` to its sources (this repository's examples, a
// monorepo's packages) gets the automemo running it, as one installed nowhere does: the same InfraError the engine
// checks failures against, and no second copy of the engine loaded per open (it cost 1–2 s of CPU on each).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InfraError } from '../../../api/index.ts';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { repoRoot } from '../../../foundation/paths.ts';

const offline = resolveModels({}, {});

describe('an environment module under a tsconfig that maps automemo to its sources', () => {
  // A second engine would be a second InfraError: the identity is what says none was loaded (its CPU, ~1–2 s an open,
  // is not asserted: a time measured in a shared worker is a race).
  it("imports the running engine's InfraError, not a second engine's", async () => {
    await withHost(offline, async (services) => {
      const opened = await openNamed(join(repoRoot, 'test', 'engine', 'environment', 'fixtures', 'identity-env.ts'), {
        models: offline,
        images: services.images,
        seed: 0,
        onNote: () => undefined,
      });
      await opened.env.close?.();
      expect((globalThis as { identityEnvInfraError?: unknown }).identityEnvInfraError).toBe(InfraError);
    });
  }, 60_000);
});
