// The visual reasoning environment: rendered task families (see families/), tools over pixels (tools/), an
// execution agent (the offline reference agent, or a model agent when AUTOMEMO_EXECUTOR_MODEL is set) and exact
// checkers, given to the engine as tasks, an agent and a checker (engine/environment/task-environment.ts does the
// rest: worlds per split, update episodes collected once and stored). Roles come from the catalog: per template,
// a fifth of the instances train (update and validation), the rest test.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import type { TaskEnvironmentSpec } from '../../engine/environment/task-spec.ts';
import type { PayloadBudget } from '../../sandbox/payload.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { experienceReaderGuide } from '../experience.ts';
import { pickNamed } from '../named-subset.ts';
import { catalogSettings } from '../template-catalog.ts';
import { folderSourceHash } from '../source-hash.ts';
import type { VisualAgent } from './agents/agent.ts';
import { ModelAgent } from './agents/model/agent.ts';
import { ReferenceAgent } from './agents/reference/agent.ts';
import { SOLVERS } from './agents/reference/solvers/index.ts';
import { buildCatalog, buildWorld } from './catalog.ts';
import { checkAnswer } from './check.ts';
import { FAMILIES } from './families/index.ts';
import { visualTask, visualTaskAgent, type VisualTruth } from './tasks.ts';
import { COMMON_TOOL_NAMES, TOOL_NAMES, TOOLS } from './tools/index.ts';
import { closeVisualOcr } from './tools/ocr.ts';

/** Bump when the episode format changes. Stored episodes are also keyed by the source of this folder. */
export const VISUAL_VERSION = 2;

export interface VisualOptions {
  models: Pick<ResolvedModels, 'executor'>;
  images: ImageStore;
  seed?: number;
  /** Instances per template (default 20: 2 update, 2 validation and 16 test tasks each; more validation when the families have fewer than 15 templates). */
  instances?: number;
  trainShare?: number;
  /** Validation tasks at least (default 30, so an evaluation can score 30); 0 keeps the train share's split. */
  validationTasks?: number;
  /** Only these families (default all). */
  families?: string[];
  budget?: PayloadBudget;
  /** The execution agent (default: the model agent when an executor model is configured, else the reference agent). */
  agent?: VisualAgent;
}

export function visualSpec(options: VisualOptions): TaskEnvironmentSpec<VisualTruth> {
  const families = pickNamed(FAMILIES, options.families, { one: 'visual family', many: 'visual families' });
  const settings = catalogSettings(options, 20);
  const { seed, instances, trainShare } = settings;
  const entries = buildCatalog(families, settings);
  const agent =
    options.agent ??
    (options.models.executor
      ? new ModelAgent(options.models.executor, { images: options.images })
      : new ReferenceAgent(SOLVERS));
  const toolsOf = new Map(families.map((f) => [f.name, [...COMMON_TOOL_NAMES, ...f.tools]]));
  const tools = TOOLS.map((t) => `${t.usage} — ${t.summary}`).join('; ');
  return {
    tasks: entries.map((e) => visualTask(e, toolsOf.get(e.task.family) ?? [...COMMON_TOOL_NAMES])),
    agent: visualTaskAgent(agent, new Map(entries.map((e) => [e.task.id, e])), buildWorld(families, seed)),
    check(task, run) {
      const c = checkAnswer((task.truth as VisualTruth).answer, run.answer);
      return {
        reward: c.correct ? 1 : 0,
        success: c.correct,
        note: c.note,
        feedback: c.correct ? 'answer accepted' : 'answer rejected',
      };
    },
    reward: `exact answer (normalized text, numeric tolerance, letter) by ${agent.id}`,
    guide: {
      reward:
        '1 when the final <answer> is correct, else 0: text answers compared after normalisation (case, spaces, ' +
        'punctuation at the ends), numbers within the task\'s tolerance (the first number of the answer, "1.5k" = 1500), ' +
        'choices by their letter. Reaching the answer by another route scores the same.',
      ...(agent.mode === 'offline'
        ? {
            reader: experienceReaderGuide(
              `tool calls in the tool grammar (\`name [x1,y1,x2,y2] key=value\`, tools: ${[...TOOL_NAMES].join(', ')})`,
              "the answer is derived from what they return with the family's own rule",
            ),
          }
        : {}),
    },
    description:
      'Visual reasoning with tools: each task is an image (or a few) rendered by the environment and a question. ' +
      'The agent uses one tool per turn, at most 8 turns, and ends with <answer>…</answer>; an exact checker scores ' +
      'the answer. Tasks come in templates: siblings share a procedure (where to look, which tool, which convention) ' +
      'but never an answer. Episodes record every tool call as a step action ("ocr [x1,y1,x2,y2]", boxes in 0–999 ' +
      `coordinates) with its result, the final answer and success. Tools: ${tools}. Families: ` +
      families.map((f) => f.description).join(' '),
    explain: (task) => {
      const t = task.truth as VisualTruth;
      const gold = [String(t.answer.value), ...(t.answer.kind === 'text' ? (t.answer.aliases ?? []) : [])];
      return { gold, notes: [`correct procedure: ${t.oracle.join(' ; ')}`, `quirk: ${t.quirk}`] };
    },
    ...(options.budget ? { budget: options.budget } : {}),
    data: {
      version: VISUAL_VERSION,
      seed,
      instancesPerTemplate: instances,
      trainShare,
      families: families.map((f) => ({ name: f.name, templates: f.templates.map((t) => t.id) })),
      source: folderSourceHash(dirname(fileURLToPath(import.meta.url))),
    },
    // Two at a time: OCR runs on two worker threads.
    collect: { concurrency: 2 },
    close: closeVisualOcr,
  };
}
