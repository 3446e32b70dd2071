// The offline reference agent for the web. It sees the instruction, the pages (aria snapshots) and the memory
// payload — never the site's database, templates or answers. Without usable memory it runs its site's generic
// procedure (solvers/), whose guesses where the quirk leaves a choice are seeded by the task id. With memory it
// reads past tasks out of the payload in any format, replays the actions of the most similar successful one —
// elements matched by role and name, this task's own arguments substituted — and reads the answer off the page;
// otherwise it steers away from what failed siblings did.
import type { MemoryPayload } from '../../../../memo-programs/contract.ts';
import { hashedRandom } from '../../../../engine/random.ts';
import { align, type Experience } from '../../../experience.ts';
import type { Session } from '../../session.ts';
import type { WebAgent, WebAgentRun, WebTaskInput } from '../agent.ts';
import { adaptAction, datePairs, parseWebMemory } from './memory.ts';
import type { SolveContext, WebSolver } from './solver.ts';

/** Instruction similarity above which a past task counts as a sibling. */
export const SIBLING_SIMILARITY = 0.7;

export class ReferenceAgent implements WebAgent {
  readonly id = 'web-reference-v1';
  readonly deterministic = true;
  readonly mode = 'offline';
  private readonly solvers: Map<string, WebSolver>;

  constructor(solvers: WebSolver[]) {
    this.solvers = new Map(solvers.map((s) => [s.site, s]));
  }

  async run(input: WebTaskInput, payload: MemoryPayload, session: Session): Promise<WebAgentRun> {
    const solver = this.solvers.get(input.site);
    const experiences = parseWebMemory(payload.text, { ours: input.instruction, minSimilarity: SIBLING_SIMILARITY });
    const siblings = experiences
      .filter((e): e is Experience & { instruction: string } => !!e.instruction && e.actions.length > 0)
      .map((e) => ({ e, a: align(input.instruction, e.instruction), dates: datePairs(e.instruction, input.instruction) }))
      .filter((x) => x.a.similarity >= SIBLING_SIMILARITY)
      .sort((x, y) => y.a.similarity - x.a.similarity);
    const adapt = (x: (typeof siblings)[number]) => x.e.actions.map((l) => adaptAction(l, x.a.mapping, x.dates)).filter((l): l is string => l !== undefined);
    const avoid = siblings.filter((x) => x.e.outcome === 'failure').map(adapt);
    const ctx: SolveContext = {
      instruction: input.instruction,
      site: input.site,
      page: () => session.page(),
      act: (line, thought) => session.act(line, thought),
      stepsLeft: () => session.stepsLeft(),
      random: hashedRandom('web-reference', input.taskId),
      avoid,
    };
    if (!solver) {
      session.finish('', `no procedure for site ${input.site}`);
      return { memoryUse: 'none' };
    }
    let memoryUse = avoid.length ? `avoided what ${avoid.length} failed sibling(s) did` : 'none';
    let answer: string | undefined;
    const success = siblings.find((x) => x.e.outcome === 'success');
    if (success) {
      const plan = adapt(success);
      let done = 0;
      for (const [k, line] of plan.entries()) {
        if (!(await ctx.act(line, `replaying step ${k + 1} of a successful similar task (similarity ${success.a.similarity.toFixed(2)})`))) break;
        done++;
      }
      memoryUse = `replayed ${done} of ${plan.length} step(s) of a successful sibling`;
      answer = await solver.finish(ctx);
    } else {
      answer = await solver.generic(ctx);
    }
    if (session.answer === undefined) session.finish(answer ?? '', `${input.site} procedure; memory: ${memoryUse}`);
    return { memoryUse };
  }
}
