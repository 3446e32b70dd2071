// The content hash a job carries for its environment: the definition (name, option, module fingerprint) and what
// the environment says of itself (agent, budget, reward, data files and their hashes). Where the module or data sit
// is left out, so a worker with the same code and data elsewhere agrees; one with other data or agent refuses.
import { createHash } from 'node:crypto';
import type { Environment } from '../environment/contract.ts';
import type { EnvSource } from '../environment/registry.ts';

export function environmentHash(env: Environment, source: EnvSource): string {
  const { name, arg, hash, kind } = source;
  const fingerprint = JSON.stringify({ kind, name, arg: arg ?? null, module: hash ?? null, info: env.info() });
  return createHash('sha256').update(fingerprint).digest('hex').slice(0, 16);
}
