// The model execution agent (AgentVista style): the question and the task images as image parts, the memory
// payload injected once as the first message, then one tool per turn through `<tool>…</tool>` until
// `<answer>…</answer>`, at most 8 turns. At most 8 images stay in context: older ones are replaced by a note.
// An API failure is an InfraError (retried by the protocol, never scored as the memory's failure).
import type { MemoryPayload } from '../../../../memo-programs/contract.ts';
import type { ImageStore } from '../../../../sandbox/primitives/images.ts';
import type { RoleModel } from '../../../../foundation/llm/models.ts';
import { fillPrompt, readPrompt } from '../../../../foundation/llm/prompt-file.ts';
import { imagePart } from '../../../../foundation/image-part.ts';
import { ExecutorChat, memoryMessage, type Part } from '../../../executor-model.ts';
import { formatCall, parseAnswer, parseCall } from '../../tools/grammar.ts';
import { runTool, TOOL_NAMES, TOOLS } from '../../tools/index.ts';
import type { ToolWorld } from '../../tools/types.ts';
import { type AgentInput, type AgentRun, type AgentStep, MAX_TURNS, toolStep, type VisualAgent } from '../agent.ts';

export interface ModelAgentOptions {
  maxTurns?: number;
  /** Images kept in context (default 8). */
  maxImages?: number;
  /** Where payload images are looked up (by id). */
  images?: ImageStore;
}

const OMITTED = '(an earlier image was removed to keep at most {n} images in context)';

export class ModelAgent implements VisualAgent {
  readonly id: string;
  readonly deterministic = false;
  readonly mode = 'model';
  private readonly maxTurns: number;
  private readonly maxImages: number;

  constructor(
    private readonly model: RoleModel,
    private readonly options: ModelAgentOptions = {},
  ) {
    this.id = `visual-model-agent:${model.model}`;
    this.maxTurns = options.maxTurns ?? MAX_TURNS;
    this.maxImages = options.maxImages ?? 8;
  }

  async run(input: AgentInput, payload: MemoryPayload, world: ToolWorld): Promise<AgentRun> {
    const tools = TOOLS.map((t) => `- ${t.usage}: ${t.summary}`).join('\n');
    const chat = new ExecutorChat(this.model, {
      system: fillPrompt(readPrompt(import.meta.url, './prompts/system.txt'), { tools, maxTurns: this.maxTurns }),
      maxTokens: 512,
      maxImages: this.maxImages,
      omitted: OMITTED.replace('{n}', String(this.maxImages)),
    });
    chat.say(memoryMessage(payload, readPrompt(import.meta.url, './prompts/memory.txt'), this.options.images));
    const imageList = input.images.map((img, i) => `Image ${i + 1}: ${img.width}×${img.height} px.`).join('\n');
    chat.say([
      { type: 'text', text: fillPrompt(readPrompt(import.meta.url, './prompts/task.txt'), { instruction: input.instruction, images: imageList }) },
      ...input.images.map((img) => imagePart(img.png, 'image/png')),
    ]);
    const steps: AgentStep[] = [];
    let answer: string | undefined;
    let turn = 0;
    if (this.maxTurns > 0) {
      await chat.loop(async (reply) => {
        turn++;
        const thought = reply.replace(/<tool>[\s\S]*?<\/tool>|<answer>[\s\S]*?<\/answer>/gi, '').replace(/^\s*thought:\s*/i, '').trim().slice(0, 600);
        answer = parseAnswer(reply);
        if (answer !== undefined) {
          steps.push({ action: `<answer>${answer}</answer>`, ...(thought ? { thought } : {}) });
          return undefined;
        }
        const next = await this.act(reply, thought, turn, input, world, steps);
        return turn < this.maxTurns ? next : undefined;
      });
    }
    const memoryUse = payload.text.trim() ? 'given to the model' : 'none';
    return { ...(answer !== undefined ? { answer } : {}), steps, tokens: chat.tokens, memoryUse };
  }

  /** Runs the tool a reply calls (or records its format error): the step, and what the model sees next. */
  private async act(reply: string, thought: string, turn: number, input: AgentInput, world: ToolWorld, steps: AgentStep[]): Promise<string | Part[]> {
    const tag = reply.match(/<tool>([\s\S]*?)<\/tool>/i)?.[1]?.trim();
    const call = tag ? parseCall(tag, TOOL_NAMES) : undefined;
    const last = turn === this.maxTurns - 1 ? '\nOne turn left: give your <answer> next.' : '';
    if (!call) {
      const error = tag ? `unknown tool call "${tag.slice(0, 120)}"; tools: ${[...TOOL_NAMES].join(', ')}` : 'no <tool>…</tool> or <answer>…</answer> in the reply';
      steps.push({ action: tag ?? '(no action)', ...(thought ? { thought } : {}), error });
      return `Format error: ${error}. Reply with one <tool>…</tool> or <answer>…</answer>.${last}`;
    }
    const action = formatCall(call);
    const r = await runTool(action, { images: input.images, world });
    steps.push(toolStep(action, r, thought));
    const observation = r.error ? `Error: ${r.error}` : (r.result?.text ?? '');
    const content: Part[] = [{ type: 'text', text: `Result of ${action}:\n${observation}${last}` }];
    if (r.result?.image) content.push(imagePart(r.result.image, 'image/png'));
    return content;
  }
}
