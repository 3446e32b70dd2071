// The web catalog as the engine's tasks and agent: each task instance becomes an EnvTask (the site and its start
// page; the expected outcome and the scripted procedure stay in `truth`), and a web agent becomes a TaskAgent that
// plays one episode on a fresh copy of the site and scores it itself: the checker reads the site's database before
// and after, which only the episode has.
import type { AgentStep, EnvTask, TaskAgent } from '../../engine/environment/task-spec.ts';
import { catalogAgent, memoryUse } from '../catalog-agent.ts';
import type { WebAgent } from './agents/agent.ts';
import type { WebTask } from './catalog.ts';
import { runEpisode, type ScreenshotPolicy } from './episode.ts';
import { MAX_STEPS, type WebStep } from './session.ts';

/** What the oracle and the explanations need of a task; never shown to programs. */
export interface WebTruth {
  expected: string;
  /** The template's scripted procedure. */
  oracle: string[];
  quirk: string;
}

export function webTask(t: WebTask): EnvTask<WebTruth> {
  return {
    id: t.id,
    // The template stays out of what programs see: the domain is the site.
    scenario: `${t.site.name}/${t.template.id}`,
    domain: t.site.name,
    instruction: t.spec.instruction,
    role: t.role,
    context: `Website: ${t.site.title} (start page ${t.spec.start})`,
    meta: { site: t.site.name, siteTitle: t.site.title, start: t.spec.start, maxSteps: MAX_STEPS },
    truth: { expected: t.spec.expected, oracle: t.spec.oracle, quirk: t.template.quirk },
  };
}

/** A browser step as the engine records it: the page after it as text and its screenshot, when one was taken. */
function recordedStep(s: WebStep): AgentStep {
  const images = s.screenshot ? [{ bytes: s.screenshot, mime: 'image/jpeg' as const, caption: `page after: ${s.action}` }] : [];
  return {
    action: s.action,
    ...(s.thought ? { thought: s.thought } : {}),
    ...(s.result !== undefined ? { result: s.result } : {}),
    ...(s.error ? { error: s.error } : {}),
    ...(s.snapshot || images.length ? { observation: { ...(s.snapshot ? { text: s.snapshot } : {}), ...(images.length ? { images } : {}) } } : {}),
  };
}

/** The web agent as the engine runs it: one episode on a fresh copy of the task's site, scored by the site's checker. */
export function webTaskAgent(agent: WebAgent, tasks: ReadonlyMap<string, WebTask>, episode: { seed: number; screenshots: ScreenshotPolicy }): TaskAgent<WebTruth> {
  return catalogAgent(agent, tasks, async (t, _task, memory) => {
    const input = { taskId: t.id, site: t.site.name, siteTitle: t.site.title, instruction: t.spec.instruction };
    const r = await runEpisode(t.site, t.spec, agent, input, memory, episode);
    const use = memoryUse(r.memoryUse);
    return {
      ...(r.answer !== undefined ? { answer: r.answer } : {}),
      steps: r.steps.map(recordedStep),
      ...(r.tokens ? { tokens: r.tokens } : {}),
      reward: r.check.correct ? 1 : 0,
      success: r.check.correct,
      note: `${r.check.note}; ${use.note}`,
      metrics: { steps: r.steps.length, memoryReplay: use.replayed, blockedRequests: r.blocked.length },
    };
  });
}
