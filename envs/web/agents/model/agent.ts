// The model execution agent (WebVoyager style): the task, then per step the page's accessibility snapshot with
// refs and a screenshot with numbered boxes; the model replies "Thought: … Action: …" with one action in the
// grammar. The memory payload is injected once, before the first step. At most 3 screenshots stay in context
// (older ones are replaced by "(Omitted in context.)", as WebVoyager does). A reply without a valid action costs
// its step and gets a format error back. An API failure is an InfraError (retried, never scored).
import type { MemoryPayload } from '../../../../memo-programs/contract.ts';
import type { RoleModel } from '../../../../foundation/llm/models.ts';
import { fillPrompt, readPrompt } from '../../../../foundation/llm/prompt-file.ts';
import type { ImageStore } from '../../../../sandbox/primitives/images.ts';
import { imagePart } from '../../../../foundation/image-part.ts';
import { ExecutorChat, memoryMessage, type Part } from '../../../executor-model.ts';
import { parseAction } from '../../browser/grammar.ts';
import type { Observation } from '../../browser/observation.ts';
import { MAX_STEPS, type Session } from '../../session.ts';
import type { WebAgent, WebAgentRun, WebTaskInput } from '../agent.ts';

export interface ModelAgentOptions {
  /** Screenshots kept in context (default 3, WebVoyager's max_attached_imgs). */
  maxScreenshots?: number;
  /** Characters of the snapshot sent per step. */
  snapshotChars?: number;
  /** Where payload images are looked up (by id). */
  images?: ImageStore;
}

/** The "Action:" of a reply (or its last action-looking line). */
export function actionOf(reply: string): string | undefined {
  const tagged = reply.match(/action\s*:\s*([^\n]+)/i)?.[1]?.trim();
  if (tagged) return tagged;
  return reply
    .split('\n')
    .map((l) => l.trim())
    .reverse()
    .find((l) => parseAction(l) !== undefined);
}

export class ModelAgent implements WebAgent {
  readonly id: string;
  readonly deterministic = false;
  readonly mode = 'model';
  private readonly maxScreenshots: number;
  private readonly snapshotChars: number;

  constructor(
    private readonly model: RoleModel,
    private readonly options: ModelAgentOptions = {},
  ) {
    this.id = `web-model-agent:${model.model}`;
    this.maxScreenshots = options.maxScreenshots ?? 3;
    this.snapshotChars = options.snapshotChars ?? 6000;
  }

  private observation(obs: Observation, step: number, feedback: string): Part[] {
    const text = fillPrompt(readPrompt(import.meta.url, './prompts/observation.txt'), {
      step,
      maxSteps: MAX_STEPS,
      title: obs.title,
      url: obs.url,
      feedback: feedback ? `\n${feedback}` : '',
      snapshot: obs.snapshot.length > this.snapshotChars ? `${obs.snapshot.slice(0, this.snapshotChars)}\n… (snapshot cut; scroll or narrow the page)` : obs.snapshot,
    });
    return [{ type: 'text', text }, ...(obs.screenshot ? [imagePart(obs.screenshot, 'image/jpeg')] : [])];
  }

  async run(input: WebTaskInput, payload: MemoryPayload, session: Session): Promise<WebAgentRun> {
    const chat = new ExecutorChat(this.model, {
      system: fillPrompt(readPrompt(import.meta.url, './prompts/system.txt'), { maxSteps: MAX_STEPS }),
      maxTokens: 400,
      maxImages: this.maxScreenshots,
      omitted: '(Omitted in context.)',
    });
    chat.say(memoryMessage(payload, readPrompt(import.meta.url, './prompts/memory.txt'), this.options.images));
    const task = fillPrompt(readPrompt(import.meta.url, './prompts/task.txt'), { instruction: input.instruction, site: input.siteTitle });
    chat.say([{ type: 'text', text: task }, ...this.observation(session.page(), 1, '')]);
    if (!session.done) {
      await chat.loop(async (reply) => {
        const thought = reply.match(/thought\s*:\s*([\s\S]*?)(?:\n\s*action\s*:|$)/i)?.[1]?.trim().slice(0, 600);
        const line = actionOf(reply) ?? reply.trim().slice(0, 200);
        const r = await session.act(line, thought);
        if (session.answer !== undefined) return undefined;
        if (!r) {
          // Only the answer step is left.
          chat.say('No steps left: reply with ANSWER; your answer now.');
          const a = parseAction(actionOf(await chat.reply()) ?? '');
          session.finish(a?.kind === 'answer' ? (a.text ?? '') : '', 'step limit reached');
          return undefined;
        }
        if (session.done) return undefined;
        const feedback = r.error ? `Your last action failed: ${r.error}` : '';
        return this.observation(r.page, session.steps.length + 1, feedback);
      });
    }
    return { memoryUse: payload.text.trim() ? 'given to the model' : 'none', tokens: chat.tokens };
  }
}
