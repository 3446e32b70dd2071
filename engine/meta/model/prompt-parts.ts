// The parts every meta prompt of a run starts with, from the most shared to the least, so an endpoint that caches
// prompt prefixes serves each once: the environment (its reward rule, data, reader, roles, budget, the sandbox, a
// real episode), the contract and the helpers — the same in every prompt of the run; then the program (the same in
// every prompt about it: its analyses, the generation of its child, that child's repairs); then, for the analyses,
// the evidence of every cluster. The part that differs (which cluster to analyse, the analyses to combine, the
// proposal to carry out, what was tried, the failure to fix) comes last.
import { readFileSync } from 'node:fs';
import type { DeclarationKey } from '../../../memo-programs/lib-declarations.ts';
import { libDetails, libIndex } from '../../../memo-programs/lib-reference.ts';
import { libImportsOf, withNeighbours } from '../../../memo-programs/lib-usage.ts';
import { contractPath } from '../../../foundation/paths.ts';
import { fillPrompt, readPrompt } from '../../../foundation/llm/prompt-file.ts';
import { type Cluster, renderCluster } from '../evidence.ts';
import type { ModelParent, ProgramFiles } from '../types.ts';
import { renderEpisode, renderUpdateEpisodes } from './render.ts';

export const prompt = (name: string) => readPrompt(import.meta.url, `./prompts/${name}.txt`);

export function renderProgram(files: ProgramFiles): string {
  return Object.entries(files)
    .sort(([a], [b]) => (a === 'index.ts' ? -1 : b === 'index.ts' ? 1 : a.localeCompare(b)))
    .map(([name, text]) => `\`\`\`ts\n// file: ${name}\n${text}\`\`\``)
    .join('\n\n');
}

/** The environment: its reward rule and data, how its agent reads a payload, the roles, the sandbox, an episode. */
export function environment(ctx: ModelParent): string {
  const g = ctx.guide;
  return fillPrompt(prompt('environment'), {
    environment: ctx.envDescription,
    reward: g?.reward ?? ctx.env.reward,
    schema: g?.schema ?? 'see the contract below (EpisodeRecorder for update, PartialRecorder for retrieve).',
    reader: g?.reader ?? (ctx.env.mode === 'offline' ? 'an offline agent; the environment does not say how it reads a payload.' : 'a model agent gets the payload before its first turn.'),
    roles: ctx.roles ?? 'not stated',
    budget: `${ctx.env.budget.maxChars} characters and ${ctx.env.budget.maxImages} images per retrieve`,
    sandbox: prompt('sandbox'),
    episode: ctx.exampleEpisode ? renderEpisode(ctx.exampleEpisode) : '(none available)',
    episodes: renderUpdateEpisodes(ctx.updateEpisodes ?? []),
  });
}

export function contract(): string {
  return fillPrompt(prompt('contract'), { contract: readFileSync(contractPath, 'utf8') });
}

/** Every automemo/lib module's exports and every stage, one line each: the same in every prompt of a run. */
export function library(): string {
  return fillPrompt(prompt('library'), { index: libIndex() });
}

/**
 * The automemo/lib declarations a program imports (read from its import declarations), in full with their
 * neighbours; `which` says whose ("the program below imports"). '' when it imports none: the index says the rest.
 */
export function libraryDetails(which: string, files: ProgramFiles): string {
  return libraryDeclarations(which, withNeighbours(libImportsOf(files)));
}

/** The given automemo/lib declarations in full, `which` saying which they are; '' when there are none. */
export function libraryDeclarations(which: string, keys: Iterable<DeclarationKey>): string {
  const declarations = libDetails(keys);
  return declarations ? `\n\n${fillPrompt(prompt('library-details'), { which, declarations })}` : '';
}

/** What every prompt of the run starts with: the environment, the contract, automemo/lib's index. */
export function context(ctx: ModelParent): string {
  return `${environment(ctx)}\n\n${contract()}\n\n${library()}`;
}

export function program(about: string, files: ProgramFiles): string {
  return fillPrompt(prompt('program'), { about, program: renderProgram(files) });
}

/**
 * Every cluster's evidence, one after another (the analyses of a step all start with all of it), with how a task's
 * memory is shown, unless the request said that already, before the program (`guide: false`).
 */
export function evidence(groups: Cluster[], guide = true): string {
  return fillPrompt(prompt('evidence'), {
    count: groups.length,
    guide: guide ? ` ${prompt('evidence-guide')}` : ' How memory is shown is said above.',
    clusters: groups.length ? groups.map(renderCluster).join('\n\n') : '(no evaluation evidence)',
  });
}
