// The open registry of environments: built-in ones are registered as definitions, exactly as a researcher's module
// would be, and anything not registered is looked up as a module path or an installed package. What a spec
// resolved to is recorded in run.json (EnvSource), so a run can be resumed, viewed and exported later from the same
// code, and says so when that code changed; a run's copy of its module or data (run-store/env-copy.ts)
// stands in for files that changed or moved since.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { ContentError } from '../../foundation/usage-error.ts';
import { COMPOSED, composedDefinition, MAX_SOURCES, splitComposite } from './compose.ts';
import { checkDefinition } from './definition-check.ts';
import type { EnvironmentDefinition } from './define.ts';
import { hashDataFiles } from './data-files.ts';
import { parseEnvSpec } from './env-spec.ts';
import type { EnvFiles, EnvSource } from './env-source.ts';
import {
  automemoNote,
  fingerprintModule,
  importDefinition,
  inspectModule,
  type ModuleInspection,
  type OwnAutomemo,
  resolveModule,
} from './module-source.ts';

// Declared in env-source.ts (open.ts needs them, and this file imports compose.ts, which imports open.ts).
export { EnvSourceSchema, type EnvFiles, type EnvSource } from './env-source.ts';

export interface ResolvedEnvironment {
  definition: EnvironmentDefinition;
  source: EnvSource;
  /** What a new run copies into its folder (run-store/env-copy.ts). */
  files?: EnvFiles;
  /** Said once when it is opened (say, which automemo a module imports). */
  notes?: string[];
}

/** A run's copy of its environment's files (run-store/env-copy.ts), as reopen() uses it. */
export interface EnvCopy {
  /** The copy of what the source's path (a module) or option (data) named. */
  path: string;
  /** The folder the copy mirrors, as it was when the run started. */
  origin: string;
  /** Where the copy is, for messages ("run-1/env"). */
  shown: string;
}

export interface RegistryOptions {
  /** What `automemo` means to a module with none installed beside it (default: nothing; the import fails). */
  ownAutomemo?: OwnAutomemo;
}

export class EnvironmentRegistry {
  private readonly defs = new Map<string, EnvironmentDefinition>();
  private readonly own: OwnAutomemo | undefined;

  constructor(definitions: EnvironmentDefinition[] = [], o: RegistryOptions = {}) {
    for (const d of definitions) this.register(d);
    this.own = o.ownAutomemo;
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
    rows.push(
      ['./path/to/env.ts', 'your own module: export default defineEnvironment({...})'],
      ['<package>', 'an installed package whose entry exports an environment'],
    );
    const w = Math.max(...rows.map(([k]) => (k as string).length));
    return rows.map(([k, v]) => `${indent}${(k as string).padEnd(w)}  ${v}`).join('\n');
  }

  /** What --env names, imported and fingerprinted when it is a module. */
  async resolve(spec: string, cwd = process.cwd()): Promise<ResolvedEnvironment> {
    const parts = splitComposite(spec, (n) => this.defs.has(n));
    if (parts.length > 1) return this.resolveComposite(spec, parts, cwd);
    const parsed = parseEnvSpec(spec, (n) => this.defs.has(n));
    if (parsed.kind === 'name') {
      const definition = this.defs.get(parsed.name) as EnvironmentDefinition;
      const source: EnvSource = {
        spec,
        kind: 'builtin',
        name: definition.name,
        ...(parsed.arg ? { arg: parsed.arg } : {}),
      };
      const data = definition.dataFiles && parsed.arg ? hashDataFiles(definition.dataFiles(parsed.arg)) : undefined;
      if (!data) return { definition, source };
      return {
        definition,
        source: { ...source, hash: data.hash, files: data.paths.length },
        files: { root: data.root, paths: data.paths },
      };
    }
    let path: string;
    try {
      path = resolveModule(parsed, cwd);
    } catch (err) {
      throw new Error(
        `${(err as Error).message}; registered environments: ${[...this.defs.keys()].join(', ') || 'none'}`,
        { cause: err },
      );
    }
    return this.fromModule(spec, path, parsed.arg);
  }

  /**
   * `a,b,c`: every part resolved here (so a part that names nothing is said before anything loads), composed when
   * opened (compose.ts). The source's hash covers the parts' specs and fingerprints: a part whose module or data
   * changed changes it.
   */
  private async resolveComposite(spec: string, parts: string[], cwd: string): Promise<ResolvedEnvironment> {
    if (parts.length > MAX_SOURCES)
      throw new Error(`--env ${spec.slice(0, 200)} composes ${parts.length} environments; at most ${MAX_SOURCES}`);
    const resolved: { spec: string; resolved: ResolvedEnvironment }[] = [];
    for (const [i, part] of parts.entries()) {
      try {
        resolved.push({ spec: part, resolved: await this.resolve(part, cwd) });
      } catch (err) {
        const message = `source ${i + 1} of ${parts.length} (${part.slice(0, 200)}): ${(err as Error).message}`;
        throw err instanceof ContentError
          ? new ContentError(message, { cause: err })
          : new Error(message, { cause: err });
      }
    }
    const hash = createHash('sha256')
      // Where a part's files are is left out (its fingerprint says what they hold), so a resume from elsewhere matches.
      .update(
        JSON.stringify(
          resolved.map((r) => [r.resolved.source.name, r.resolved.source.hash ?? r.resolved.source.arg ?? '']),
        ),
      )
      .digest('hex')
      .slice(0, 16);
    const notes = resolved.flatMap((r) => r.resolved.notes ?? []);
    // The parts as any process finds them: modules by their absolute path, data by its absolute path (a worker in
    // another folder, a resume from elsewhere). Reopening reads this, not the spec as typed.
    const absolute = resolved.map(({ spec: part, resolved: r }) => {
      if (r.source.kind === 'module' && r.source.path)
        return `${r.source.path}${r.source.arg ? `:${r.source.arg}` : ''}`;
      if (r.definition.argIsPath && r.source.arg) return `${r.source.name}:${resolvePath(cwd, r.source.arg)}`;
      return part;
    });
    return {
      definition: composedDefinition(resolved),
      source: { spec, kind: 'builtin', name: COMPOSED, arg: absolute.join(','), hash },
      ...(notes.length ? { notes } : {}),
    };
  }

  /**
   * The environment a run recorded, as its files are now; `changed` says how they differ from when the run started.
   * Files that changed or are gone are read from the run's copy of them when there is one (`copy`).
   */
  async reopen(source: EnvSource, copy?: EnvCopy): Promise<ResolvedEnvironment & { changed?: string }> {
    if (source.kind === 'builtin' && source.name === COMPOSED && !this.defs.has(COMPOSED)) {
      // Its parts as they are now (a composed environment keeps no copy of its parts' files).
      const now = await this.resolve(source.arg ?? source.spec);
      return now.source.hash === source.hash
        ? now
        : {
            ...now,
            changed: `a source of ${source.spec.slice(0, 200)} changed since this run started (its sources hashed ${source.hash}, now ${now.source.hash}); using them as they are now`,
          };
    }
    if (source.kind === 'builtin') return this.reopenBuiltin(source, copy);
    const path = source.path as string;
    const now = await this.inspectNow(path);
    if (now.inspection?.hash === source.hash)
      return this.fromModule(source.spec, path, source.arg, now.inspection, source.origin);
    const why = now.inspection
      ? changeNote(path, source.hash, now.inspection.hash)
      : `environment module ${path} ${now.problem}`;
    if (copy) {
      const taken = await this.fromModule(source.spec, copy.path, source.arg, undefined, copy.origin);
      if (taken.source.hash !== source.hash)
        throw new Error(`${why}; the run's copy of it (${copy.shown}) is not the code the run started with either`);
      this.checkName(taken, source);
      // The source names the copy, which jobs open, and its origin, where its packages are.
      return { ...taken, changed: `${why}; using the run's copy of it (${copy.shown})` };
    }
    if (!now.inspection) throw new Error(`${why}, and the run has no copy of it`);
    const taken = await this.fromModule(source.spec, path, source.arg, now.inspection);
    this.checkName(taken, source);
    return { ...taken, changed: `${why}; using it as it is now` };
  }

  private checkName(now: ResolvedEnvironment, source: EnvSource): void {
    if (now.definition.name !== source.name)
      throw new Error(
        `environment module ${now.source.path} now defines "${now.definition.name}"; this run used "${source.name}"`,
      );
  }

  private async inspectNow(path: string): Promise<{ inspection?: ModuleInspection; problem?: string }> {
    if (!existsSync(path)) return { problem: 'is gone (moved or deleted since the run started)' };
    try {
      return { inspection: await inspectModule(resolveModule({ kind: 'path', path }, '/')) };
    } catch (err) {
      return { problem: `cannot be read now: ${(err as Error).message}` };
    }
  }

  private reopenBuiltin(source: EnvSource, copy: EnvCopy | undefined): ResolvedEnvironment & { changed?: string } {
    const definition = this.defs.get(source.name);
    if (!definition)
      throw new Error(
        `this run used the environment "${source.name}", which is not registered here; registered: ${[...this.defs.keys()].join(', ')}`,
      );
    if (!definition.dataFiles || source.arg === undefined || source.hash === undefined) return { definition, source };
    let why: string;
    try {
      const now = hashDataFiles(definition.dataFiles(source.arg));
      if (now.hash === source.hash) return { definition, source };
      why = `the data ${source.arg} changed since this run started (its files hashed ${source.hash}, now ${now.hash})`;
    } catch (err) {
      why = `the data ${source.arg} cannot be read now (${(err as Error).message})`;
    }
    if (!copy) return { definition, source, changed: `${why}; using it as it is now` };
    const taken = hashDataFiles(definition.dataFiles(copy.path));
    if (taken.hash !== source.hash)
      throw new Error(`${why}; the run's copy of it (${copy.shown}) is not the data the run started with either`);
    const name = source.spec.slice(0, source.spec.indexOf(':') + 1);
    return {
      definition,
      source: { ...source, spec: `${name}${copy.path}`, arg: copy.path },
      changed: `${why}; using the run's copy of it (${copy.shown})`,
    };
  }

  private async fromModule(
    spec: string,
    path: string,
    arg: string | undefined,
    known?: ModuleInspection,
    origin?: string,
  ): Promise<ResolvedEnvironment> {
    let inspection: ModuleInspection;
    let definition: EnvironmentDefinition;
    try {
      inspection = known ?? (await inspectModule(path));
      definition = await importDefinition(path, {
        ...(this.own ? { own: this.own } : {}),
        inspection,
        ...(origin ? { packagesFrom: origin } : {}),
      });
    } catch (err) {
      // What the module holds is the researcher's to fix, but it is no mistake in the command that named it.
      throw err instanceof ContentError ? err : new ContentError((err as Error).message, { cause: err });
    }
    const note = this.own ? automemoNote(path, inspection, this.own) : undefined;
    return {
      definition,
      source: {
        spec,
        kind: 'module',
        name: definition.name,
        ...(arg ? { arg } : {}),
        path,
        hash: inspection.hash,
        files: inspection.files,
        ...(origin ? { origin } : {}),
      },
      files: { root: inspection.root, paths: inspection.paths },
      ...(note ? { notes: [note] } : {}),
    };
  }
}

/**
 * A note when a run's environment (module or data) changed or is gone since the run started, and what stands in for
 * it; nothing when it is as it was, or for built-ins without files.
 */
export async function environmentChangeNote(
  source: EnvSource | undefined,
  dataFiles: ((arg: string) => string[]) | undefined,
  copy?: string,
): Promise<string | undefined> {
  const instead = copy ? `the run's copy of it (${copy}) is used by --resume and export` : 'the run has no copy of it';
  if (source?.kind === 'module' && source.path) {
    if (!existsSync(source.path))
      return `environment module ${source.path} is gone (moved or deleted since the run started); ${instead}`;
    try {
      const now = await fingerprintModule(resolveModule({ kind: 'path', path: source.path }, '/'));
      return now.hash === source.hash ? undefined : `${changeNote(source.path, source.hash, now.hash)}; ${instead}`;
    } catch (err) {
      return `environment module ${source.path} cannot be read now (${(err as Error).message.split('\n')[0]}); ${instead}`;
    }
  }
  if (source?.kind === 'builtin' && dataFiles && source.arg !== undefined && source.hash !== undefined) {
    try {
      const now = hashDataFiles(dataFiles(source.arg));
      return now.hash === source.hash
        ? undefined
        : `the data ${source.arg} changed since this run started (its files hashed ${source.hash}, now ${now.hash}); ${instead}`;
    } catch (err) {
      return `the data ${source.arg} cannot be read now (${(err as Error).message}); ${instead}`;
    }
  }
  return undefined;
}

const changeNote = (path: string, then: string | undefined, now: string | undefined) =>
  `environment module ${path} changed since this run started (its files hashed ${then}, now ${now})`;
