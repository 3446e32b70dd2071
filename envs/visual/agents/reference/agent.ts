// The offline reference agent. It sees the instruction, the task's pixels through the tools, and the memory
// payload — never the generator's scene data or the answer. Without usable memory it runs its family's generic
// procedure, whose guesses (where to look, which convention) are seeded by the task id. With memory it reads past
// tasks out of the payload (labelled "Task: …" or any line that reads like its own question), re-runs the tool
// calls of the most similar successful one with this task's own arguments, and otherwise steers away from what
// failed siblings did. One tool per turn, at most 8 turns
// including the answer.
import type { MemoryPayload } from '../../../../memo-programs/contract.ts';
import { hashedRandom } from '../../../../engine/random.ts';
import { formatCall, type ToolCall } from '../../tools/grammar.ts';
import { runTool, TOOL_NAMES } from '../../tools/index.ts';
import type { ToolWorld } from '../../tools/types.ts';
import { adapt, adaptCall, align, type Experience, parseMemory } from './memory.ts';
import type { Executed, SolveContext, Solver } from './solver.ts';
import { type AgentInput, type AgentRun, type AgentStep, MAX_TURNS, toolStep, type VisualAgent } from '../agent.ts';

/** Instruction similarity above which a past task counts as a sibling. */
export const SIBLING_SIMILARITY = 0.7;

export class ReferenceAgent implements VisualAgent {
  readonly id = 'visual-reference-v1';
  readonly deterministic = true;
  readonly mode = 'offline';

  constructor(private readonly solvers: Solver[]) {}

  solverFor(instruction: string): Solver | undefined {
    let best: Solver | undefined;
    let score = 0;
    for (const s of this.solvers) {
      const m = s.match(instruction);
      if (m > score) {
        best = s;
        score = m;
      }
    }
    return best;
  }

  async run(input: AgentInput, payload: MemoryPayload, world: ToolWorld): Promise<AgentRun> {
    const steps: AgentStep[] = [];
    const executed: Executed[] = [];
    let turns = 0;
    const exec = async (line: string, thought?: string): Promise<Executed | undefined> => {
      if (turns >= MAX_TURNS - 1) return undefined;
      turns++;
      const r = await runTool(line, { images: input.images, world });
      const action = r.call ? formatCall(r.call) : line;
      const e: Executed = { line: action, ...(r.call ? { call: r.call } : {}), ...(r.result ? { result: r.result } : {}), ...(r.error ? { error: r.error } : {}) };
      executed.push(e);
      steps.push(toolStep(action, r, thought));
      return e;
    };
    const random = hashedRandom('visual-reference', input.taskId);
    const solver = this.solverFor(input.instruction);
    const experiences = parseMemory(payload.text, TOOL_NAMES, { ours: input.instruction, minSimilarity: SIBLING_SIMILARITY });
    const siblings = experiences
      .filter((e): e is Experience & { instruction: string } => !!e.instruction && e.actions.length > 0)
      .map((e) => ({ e, a: align(input.instruction, e.instruction) }))
      .filter((x) => x.a.similarity >= SIBLING_SIMILARITY)
      .sort((x, y) => y.a.similarity - x.a.similarity);
    let answer: string | undefined;
    let memoryUse = 'none';

    const success = siblings.find((x) => x.e.outcome === 'success');
    if (success && solver) {
      // Tools are deterministic: a call already made would return the same thing, so each is made once.
      const plan = [...new Set(success.e.actions.map((a) => adapt(a, success.a.mapping, TOOL_NAMES)))];
      for (const [k, line] of plan.entries()) {
        if (!(await exec(line, `replaying step ${k + 1} of a successful similar task (similarity ${success.a.similarity.toFixed(2)})`))) break;
      }
      memoryUse = `replayed ${plan.length} call(s) of a successful sibling`;
      answer = solver.derive(input.instruction, executed);
    }
    if (answer === undefined) {
      const avoid = siblings
        .filter((x) => x.e.outcome === 'failure')
        .map((x) => x.e.actions.map((a) => adaptCall(a, x.a.mapping, TOOL_NAMES)).filter((c): c is ToolCall => c !== undefined));
      if (avoid.length && memoryUse === 'none') memoryUse = `avoided what ${avoid.length} failed sibling(s) did`;
      const ctx: SolveContext = { instruction: input.instruction, exec, turnsLeft: () => MAX_TURNS - 1 - turns, random, avoid, executed };
      answer = solver ? await solver.generic(ctx) : await fallback(ctx);
    }
    steps.push({ action: `<answer>${answer ?? 'unknown'}</answer>`, thought: solver ? `${solver.family} procedure; memory: ${memoryUse}` : 'no family matched the instruction' });
    return { ...(answer !== undefined ? { answer } : {}), steps, memoryUse };
  }
}

/** No family recognised the instruction: read the whole image and answer with its first line. */
async function fallback(ctx: SolveContext): Promise<string | undefined> {
  const r = await ctx.exec('ocr [0,0,999,999]', 'no family matched; reading the whole image');
  const data = r?.result?.data as { lines?: { text: string }[] } | undefined;
  return data?.lines?.[0]?.text;
}
