// One episode's browser session as agents see it: the current observation, `act` (one grammar line = one step,
// at most 15 including the answer, WebVoyager's limit) and `answer`. Every step is recorded with the canonical
// action (ref plus role and name, so it can be replayed in another episode), its result or error, the page's
// snapshot and a marked screenshot.
import type { Page } from 'playwright-core';
import type { Observation } from './browser/observation.ts';
import { execute, resolveTarget } from './browser/execute.ts';
import { formatAction, parseAction, type WebAction } from './browser/grammar.ts';
import { observe } from './browser/observe.ts';
import { NavigationTracker } from './browser/navigation.ts';
import { findAll } from './browser/snapshot.ts';

export const MAX_STEPS = 15;
/** Characters of a page snapshot kept in a recorded step. */
const SNAPSHOT_CHARS = 4000;

export interface WebStep {
  action: string;
  thought?: string;
  /** Where the action led ("now at Cart (/cart)"). */
  result?: string;
  error?: string;
  /** The page after the step, as text. */
  snapshot?: string;
  screenshot?: Buffer;
}

export interface ActOutcome {
  ok: boolean;
  error?: string;
  page: Observation;
}

export class Session {
  readonly steps: WebStep[] = [];
  answer: string | undefined;
  private obs: Observation;

  private constructor(
    private readonly pageHandle: Page,
    private readonly nav: NavigationTracker,
    first: Observation,
    private readonly screenshots: boolean,
  ) {
    this.obs = first;
  }

  static async open(
    page: Page,
    url: string,
    options: { screenshots: boolean },
  ): Promise<{ session: Session; first: Observation }> {
    const nav = new NavigationTracker(page);
    await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
    await nav.settle();
    const first = await observe(page, { screenshot: options.screenshots });
    return { session: new Session(page, nav, first, options.screenshots), first };
  }

  page(): Observation {
    return this.obs;
  }

  get done(): boolean {
    return this.answer !== undefined || this.steps.length >= MAX_STEPS;
  }

  /** Steps left, the answer step included. */
  stepsLeft(): number {
    return this.answer !== undefined ? 0 : MAX_STEPS - this.steps.length;
  }

  /** One action line. Undefined when only the answer step is left (or the episode is over). */
  async act(line: string, thought?: string): Promise<ActOutcome | undefined> {
    const a = parseAction(line);
    if (a?.kind === 'answer') {
      this.finish(a.text ?? '', thought);
      return { ok: true, page: this.obs };
    }
    if (this.stepsLeft() <= 1) return undefined;
    if (!a)
      return this.record(
        {
          action: line.trim().slice(0, 200),
          error:
            'Format ERROR: not an action (Click [N], Type [N]; text, Select [N]; option, Scroll [WINDOW]; down, GoBack, Wait, ANSWER; text)',
        },
        thought,
      );
    const target = resolveTarget(this.obs.nodes, a);
    if (target.error) return this.record({ action: formatAction(a), error: target.error }, thought);
    const node = target.node;
    const done: WebAction = node
      ? { ...a, ref: node.ref as string, role: node.role, name: node.name || node.text || '', ...nthOf(this.obs, node) }
      : a;
    const before = this.obs.url;
    const error = await execute(this.pageHandle, this.nav, a, node);
    this.obs = await observe(this.pageHandle, { screenshot: this.screenshots });
    const moved =
      this.obs.url !== before
        ? `now at ${this.obs.title} (${pathOf(this.obs.url)})`
        : `still at ${this.obs.title} (${pathOf(this.obs.url)})`;
    return this.record({ action: formatAction(done), ...(error ? { error } : { result: moved }) }, thought);
  }

  /** The final answer (the last step). */
  finish(text: string, thought?: string): void {
    if (this.answer !== undefined) return;
    this.answer = text;
    this.steps.push({ action: `ANSWER; ${text}`, ...(thought ? { thought } : {}) });
  }

  private record(step: Omit<WebStep, 'snapshot' | 'screenshot'>, thought?: string): ActOutcome {
    this.steps.push({
      ...step,
      ...(thought ? { thought } : {}),
      snapshot: this.obs.snapshot.slice(0, SNAPSHOT_CHARS),
      ...(this.obs.screenshot ? { screenshot: this.obs.screenshot } : {}),
    });
    return { ok: !step.error, ...(step.error ? { error: step.error } : {}), page: this.obs };
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** `#k` when other elements share the node's role and name (so a replay picks the same one). */
function nthOf(obs: Observation, node: Observation['nodes'][number]): { nth?: number } {
  const same = findAll(obs.nodes, node.role, node.name || node.text || '');
  const k = same.indexOf(node) + 1;
  return same.length > 1 && k > 1 ? { nth: k } : {};
}
