// The open registry of environments: built-in ones are registered as definitions, exactly as a researcher's module
// would be, and anything not registered is looked up as a module path or an installed package. What a spec
// resolved to is recorded in run.json (EnvSource), so a run can be resumed, viewed and exported later from the same
// code, and says so when that code changed.
import { z } from 'zod';
import { checkDefinition } from './definition-check.ts';
import type { EnvironmentDefinition } from './define.ts';
import { parseEnvSpec } from './env-spec.ts';
import { fingerprintModule, importDefinition, resolveModule } from './module-source.ts';

export const EnvSourceSchema = z
  .object({
    /** As the user gave it, e.g. "visual:charts" or "./my-env.ts". */
    spec: z.string().max(4096),
    kind: z.enum(['builtin', 'module']),
    /** The definition's name. */
    name: z.string().max(64),
    arg: z.string().max(4096).optional(),
    /** A module's file, absolute, so the run finds it from any working folder. */
    path: z.string().max(4096).optional(),
    /** A module's fingerprint over its local files (module-source.ts). */
    hash: z.string().max(64).optional(),
    files: z.number().int().nonnegative().optional(),
  })
  .strict();
export type EnvSource = z.infer<typeof EnvSourceSchema>;

export interface ResolvedEnvironment {
  definition: EnvironmentDefinition;
  source: EnvSource;
}

export class EnvironmentRegistry {
  private readonly defs = new Map<string, EnvironmentDefinition>();

  constructor(definitions: EnvironmentDefinition[] = []) {
    for (const d of definitions) this.register(d);
  }

  register(definition: EnvironmentDefinition): void {
    const def = checkDefinition(definition, 'registerEnvironment');
    const taken = this.defs.get(def.name);
    if (taken && taken !== def) throw new Error(`an environment named "${def.name}" is already registered`);
    this.defs.set(def.name, def);
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  list(): EnvironmentDefinition[] {
    return [...this.defs.values()];
  }

  /** One line per registered environment and the other forms --env takes, for help and errors. */
  help(indent = '  '): string {
    const rows = this.list().map((d) => [d.options ? `${d.name}:${d.options}` : d.name, d.summary]);
    rows.push(['./path/to/env.ts', 'your own module: export default defineEnvironment({...})'], ['<package>', 'an installed package whose entry exports an environment']);
    const w = Math.max(...rows.map(([k]) => (k as string).length));
    return rows.map(([k, v]) => `${indent}${(k as string).padEnd(w)}  ${v}`).join('\n');
  }

  /** What --env names, imported and fingerprinted when it is a module. */
  async resolve(spec: string, cwd = process.cwd()): Promise<ResolvedEnvironment> {
    const parsed = parseEnvSpec(spec, (n) => this.defs.has(n));
    if (parsed.kind === 'name') {
      const definition = this.defs.get(parsed.name) as EnvironmentDefinition;
      return { definition, source: { spec, kind: 'builtin', name: definition.name, ...(parsed.arg ? { arg: parsed.arg } : {}) } };
    }
    let path: string;
    try {
      path = resolveModule(parsed, cwd);
    } catch (err) {
      throw new Error(`${(err as Error).message}; registered environments: ${[...this.defs.keys()].join(', ') || 'none'}`, { cause: err });
    }
    return this.fromModule(spec, path, parsed.arg);
  }

  /** The environment a run recorded; `changed` says how the module differs from when the run started. */
  async reopen(source: EnvSource): Promise<ResolvedEnvironment & { changed?: string }> {
    if (source.kind === 'builtin') {
      const definition = this.defs.get(source.name);
      if (!definition) throw new Error(`this run used the environment "${source.name}", which is not registered here; registered: ${[...this.defs.keys()].join(', ')}`);
      return { definition, source };
    }
    const path = source.path as string;
    const now = await this.fromModule(source.spec, resolveModule({ kind: 'path', path }, '/'), source.arg);
    if (now.definition.name !== source.name) throw new Error(`environment module ${path} now defines "${now.definition.name}"; this run used "${source.name}"`);
    const changed = now.source.hash !== source.hash ? changeNote(path, source.hash, now.source.hash) : undefined;
    return { ...now, ...(changed ? { changed } : {}) };
  }

  private async fromModule(spec: string, path: string, arg: string | undefined): Promise<ResolvedEnvironment> {
    const definition = await importDefinition(path);
    const print = await fingerprintModule(path);
    return { definition, source: { spec, kind: 'module', name: definition.name, ...(arg ? { arg } : {}), path, hash: print.hash, files: print.files } };
  }
}

/** A note when a run's environment module changed or is gone since the run started; nothing for built-ins. */
export async function moduleChangeNote(source: EnvSource | undefined): Promise<string | undefined> {
  if (source?.kind !== 'module' || !source.path) return undefined;
  try {
    const now = await fingerprintModule(resolveModule({ kind: 'path', path: source.path }, '/'));
    return now.hash === source.hash ? undefined : changeNote(source.path, source.hash, now.hash);
  } catch (err) {
    return `environment module ${source.path} cannot be read now: ${(err as Error).message}`;
  }
}

const changeNote = (path: string, then: string | undefined, now: string | undefined) => `environment module ${path} changed since this run started (its files hashed ${then}, now ${now})`;
