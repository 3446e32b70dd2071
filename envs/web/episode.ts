// One episode: a fresh copy of the site's database served on 127.0.0.1, a fresh browser context, the agent's
// steps, then the checker over the database before and after and the answer. `runOracle` plays a template's
// scripted procedure the same way (the test that every template is solvable).
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import type { WebAgent, WebAgentRun, WebTaskInput } from './agents/agent.ts';
import { withPage } from './browser/browser.ts';
import type { Observation } from './browser/observation.ts';
import { markedScreenshot } from './browser/observe.ts';
import { freshDb, instantiate } from './catalog.ts';
import type { CheckResult } from './check.ts';
import { startSite } from './server.ts';
import { Session, type WebStep } from './session.ts';
import type { SiteDb, WebInstance, WebSite } from './site.ts';

export interface EpisodeResult extends WebAgentRun {
  answer?: string;
  steps: WebStep[];
  /** The start page. */
  first: Observation;
  check: CheckResult;
  /** Requests the browser tried outside 127.0.0.1 (aborted). */
  blocked: string[];
  ms: number;
}

export type ScreenshotPolicy = 'every' | 'final' | 'none';

export interface EpisodeOptions {
  seed: number;
  /**
   * Marked screenshots: after every step (what a model agent sees), of the final page only (enough evidence for
   * an agent that reads snapshots; a screenshot costs about as much as the action), or none. Default every.
   */
  screenshots?: ScreenshotPolicy;
}

export async function runEpisode(
  site: WebSite,
  spec: WebInstance<SiteDb>,
  agent: WebAgent,
  input: WebTaskInput,
  payload: MemoryPayload,
  options: EpisodeOptions,
): Promise<EpisodeResult> {
  const started = Date.now();
  const before = freshDb(site, options.seed);
  const running = await startSite(site, structuredClone(before));
  try {
    return await withPage(async ({ page, blocked }) => {
      const policy = options.screenshots ?? 'every';
      const { session, first } = await Session.open(page, `${running.url}${spec.start}`, { screenshots: policy === 'every' });
      const run = await agent.run(input, payload, session);
      if (session.answer === undefined) session.finish('', 'no answer within the step limit');
      if (policy === 'final') {
        const last = session.steps[session.steps.length - 1];
        const shot = last ? await markedScreenshot(page, session.page().nodes) : undefined;
        if (last && shot) last.screenshot = shot;
      }
      const check = spec.check({ before, after: running.db, answer: session.answer });
      return { ...run, answer: session.answer, steps: session.steps, first, check, blocked, ms: Date.now() - started };
    });
  } finally {
    await running.close();
  }
}

/** Plays a fixed list of action lines (an oracle), then its ANSWER. */
export class ScriptAgent implements WebAgent {
  readonly id = 'web-script';
  readonly deterministic = true;
  readonly mode = 'offline';
  constructor(private readonly lines: string[]) {}

  async run(_input: WebTaskInput, _payload: MemoryPayload, session: Session): Promise<WebAgentRun> {
    for (const line of this.lines) {
      const r = await session.act(line, 'scripted');
      if (!r || session.answer !== undefined) break;
    }
    return { memoryUse: 'none' };
  }
}

export async function runOracle(site: WebSite<any>, templateId: string, instance: number, options: { seed?: number } = {}): Promise<{ correct: boolean; note: string; steps: string[] }> {
  const template = (site as WebSite).templates.find((t) => t.id === templateId);
  if (!template) throw new Error(`site ${site.name} has no template ${templateId}`);
  const seed = options.seed ?? 0;
  const spec = instantiate(site, template, instance, seed);
  const input: WebTaskInput = { taskId: `${site.name}/${templateId}/${instance}`, site: site.name, siteTitle: site.title, instruction: spec.instruction };
  const r = await runEpisode(site, spec, new ScriptAgent(spec.oracle), input, { text: '', images: [] }, { seed, screenshots: 'none' });
  return { correct: r.check.correct, note: r.check.note, steps: r.steps.map((s) => (s.error ? `${s.action} [error: ${s.error}]` : s.action)) };
}
