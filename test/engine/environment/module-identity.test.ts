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
  it("imports the running engine's InfraError, and an open loads no second engine", async () => {
    await withHost(offline, async (services) => {
      const open = () =>
        openNamed(join(repoRoot, 'test', 'engine', 'environment', 'fixtures', 'identity-env.ts'), {
          models: offline,
          images: services.images,
          seed: 0,
          onNote: () => undefined,
        });
      const first = await open();
      await first.env.close?.();
      expect((globalThis as { identityEnvInfraError?: unknown }).identityEnvInfraError).toBe(InfraError);
      // The vault module once more, as each job of a search opens it: with a second engine per open, ~1–2 s.
      const started = process.cpuUsage();
      const again = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), {
        models: offline,
        images: services.images,
        seed: 1,
        onNote: () => undefined,
      });
      await again.env.close?.();
      const used = process.cpuUsage(started);
      expect((used.user + used.system) / 1000).toBeLessThan(600);
    });
  }, 60_000);
});
