// The web environment: five local mini-sites (sites/) served on 127.0.0.1, Debian's Chromium through Playwright
// (browser/), an execution agent (the offline reference agent, or a WebVoyager-style model agent when
// AUTOMEMO_EXECUTOR_MODEL is set) whose episodes are checked against the site's database or the answer, given to
// the engine as tasks and a self-scoring agent (engine/environment/task-environment.ts does the rest: worlds per
// split, update episodes collected once and stored with their screenshots). Roles come from the catalog: per
// template, a fifth of the instances train (update and validation), the rest test.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import type { TaskEnvironmentSpec } from '../../engine/environment/task-spec.ts';
import type { PayloadBudget } from '../../sandbox/payload.ts';
import { experienceReaderGuide } from '../experience.ts';
import { pickNamed } from '../named-subset.ts';
import { catalogSettings } from '../template-catalog.ts';
import { folderSourceHash } from '../source-hash.ts';
import type { WebAgent } from './agents/agent.ts';
import { ModelAgent } from './agents/model/agent.ts';
import { ReferenceAgent } from './agents/reference/agent.ts';
import { SOLVERS } from './agents/reference/solvers/index.ts';
import { closeBrowsers } from './browser/browser.ts';
import { buildCatalog } from './catalog.ts';
import type { ScreenshotPolicy } from './episode.ts';
import { MAX_STEPS } from './session.ts';
import { SITES } from './sites/index.ts';
import { webTask, webTaskAgent, type WebTruth } from './tasks.ts';

/** Bump when the episode format changes. Stored episodes are also keyed by the source of this folder. */
export const WEB_VERSION = 2;

export interface WebOptions {
  models: Pick<ResolvedModels, 'executor'>;
  seed?: number;
  /** Instances per template (default 15: 2 update, 1 validation and 12 test tasks each; more validation when the sites have fewer than 30 templates). */
  instances?: number;
  trainShare?: number;
  /** Validation tasks at least (default 30, so an evaluation can score 30); 0 keeps the train share's split. */
  validationTasks?: number;
  /** Only these sites (default all). */
  sites?: string[];
  budget?: PayloadBudget;
  agent?: WebAgent;
  /** Default: every step for a model agent (it looks at them), the final page for the reference agent. */
  screenshots?: ScreenshotPolicy;
  /** Episodes collected at once (browser contexts). Default 4. */
  concurrency?: number;
}

export function webSpec(options: WebOptions): TaskEnvironmentSpec<WebTruth> {
  const sites = pickNamed(SITES, options.sites, { one: 'web site', many: 'web sites' });
  const settings = catalogSettings(options, 15);
  const { seed, instances, trainShare } = settings;
  const catalog = buildCatalog(sites, settings);
  const agent =
    options.agent ?? (options.models.executor ? new ModelAgent(options.models.executor) : new ReferenceAgent(SOLVERS));
  const screenshots = options.screenshots ?? (agent.mode === 'model' ? 'every' : 'final');
  return {
    tasks: catalog.map(webTask),
    agent: webTaskAgent(agent, new Map(catalog.map((t) => [t.id, t])), { seed, screenshots }),
    reward: `task success (site state or answer, checked programmatically) by ${agent.id}`,
    guide: {
      reward:
        "1 when the checker accepts, else 0. An answer task: the agent's ANSWER equals the expected value after " +
        'normalisation (case, spaces, punctuation at the ends; aliases allowed), contains every required piece, or is ' +
        "the expected number within a tolerance. A change task: the site's database holds the requested records and " +
        'fields, and nothing outside the task changed. The steps taken are not scored, only the end state or answer.',
      ...(agent.mode === 'offline'
        ? {
            reader: experienceReaderGuide(
              'browser actions naming their element by role and name (`Click [e12] link "Refine"` or `Click link "Refine"`, `Type textbox "Email"; text`, `Select combobox "Size"; option`, `Scroll [WINDOW]; down`, `GoBack`, `Wait`; refs alone mean nothing in another episode, and an action followed by "[error" is dropped)',
              "dates in typed text are re-rendered for this task's dates, and the agent then reads the answer off the page with its site's rule",
            ),
          }
        : {}),
    },
    description:
      `Web navigation on local mini-sites: each task names a site and asks for an answer or a change (an order, a ` +
      `booking, a ticket). The agent sees the page as an accessibility snapshot with element refs and a screenshot ` +
      `with numbered boxes, and acts one step at a time (Click, Type, Select, Scroll, GoBack, ANSWER), at most ` +
      `${MAX_STEPS} steps. Checkers read the site's database (with a guard against changes outside the task) or the ` +
      `answer. Tasks come in templates: siblings share a procedure (which control, which format, which detour) but ` +
      `never an answer. Episodes record every action with its element's role and name ('Click [e12] link "Refine"'), ` +
      `the page after it and success. Sites: ` +
      sites.map((s) => `${s.title} — ${s.description}`).join(' '),
    // The expected outcome is a state of the site as often as an answer: a note, not a gold answer.
    explain: (task) => {
      const t = task.truth as WebTruth;
      return {
        gold: [],
        notes: [`expected: ${t.expected}`, `correct procedure: ${t.oracle.join(' ; ')}`, `quirk: ${t.quirk}`],
      };
    },
    ...(options.budget ? { budget: options.budget } : {}),
    data: {
      version: WEB_VERSION,
      seed,
      instancesPerTemplate: instances,
      trainShare,
      sites: sites.map((s) => ({ name: s.name, templates: s.templates.map((t) => t.id) })),
      screenshots,
      source: folderSourceHash(dirname(fileURLToPath(import.meta.url))),
    },
    collect: { concurrency: options.concurrency ?? 4 },
    close: closeBrowsers,
  };
}
