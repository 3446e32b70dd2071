// The parts every meta prompt of a step starts with, in one order, so an endpoint that caches prompt prefixes
// serves them once: the environment (its reward rule, data, reader, roles, budget), the sandbox and the helpers; then
// the program; then, for the analyses, the evidence of every cluster. The part that differs (which cluster to
// analyse, the analyses to combine, the proposal to carry out) comes last. The contract goes only to the calls that
// write a program: the analyses of two recorded real-model sessions never named one of its types.
import { readFileSync } from 'node:fs';
import { libReference } from '../../../memo-programs/lib-reference.ts';
import { contractPath } from '../../../sandbox/paths.ts';
import { fillPrompt, readPrompt } from '../../llm/prompt-file.ts';
import { type Cluster, renderCluster } from '../evidence.ts';
import type { ParentContext, ProgramFiles } from '../types.ts';
import { renderEpisode, renderUpdateEpisodes } from './render.ts';

export const prompt = (name: string) => readPrompt(import.meta.url, `./prompts/${name}.txt`);

export function renderProgram(files: ProgramFiles): string {
  return Object.entries(files)
    .sort(([a], [b]) => (a === 'index.ts' ? -1 : b === 'index.ts' ? 1 : a.localeCompare(b)))
    .map(([name, text]) => `\`\`\`ts\n// file: ${name}\n${text}\`\`\``)
    .join('\n\n');
}

/** The environment, its reward rule and data, the sandbox, the contract and the helpers. */
export function context(ctx: ParentContext): string {
  const g = ctx.guide;
  return fillPrompt(prompt('context'), {
    environment: ctx.envDescription,
    reward: g?.reward ?? ctx.env.reward,
    schema: g?.schema ?? 'see the contract below (EpisodeRecorder for update, PartialRecorder for retrieve).',
    reader: g?.reader ?? (ctx.env.mode === 'offline' ? 'an offline agent; the environment does not say how it reads a payload.' : 'a model agent gets the payload before its first turn.'),
    roles: ctx.roles ?? 'not stated',
    budget: `${ctx.env.budget.maxChars} characters and ${ctx.env.budget.maxImages} images per retrieve`,
    sandbox: prompt('sandbox'),
    helpers: libReference(),
    episode: ctx.exampleEpisode ? renderEpisode(ctx.exampleEpisode) : '(none available)',
    episodes: renderUpdateEpisodes(ctx.updateEpisodes ?? []),
  });
}

/** The contract, for the calls that write a program (generation, repair, initialization). */
export function contract(): string {
  return fillPrompt(prompt('contract'), { contract: readFileSync(contractPath, 'utf8') });
}

export function program(about: string, files: ProgramFiles): string {
  return fillPrompt(prompt('program'), { about, program: renderProgram(files) });
}

/** Every cluster's evidence, one after another (the analyses of a step all start with all of it). */
export function evidence(groups: Cluster[]): string {
  return fillPrompt(prompt('evidence'), { count: groups.length, clusters: groups.length ? groups.map(renderCluster).join('\n\n') : '(no evaluation evidence)' });
}
