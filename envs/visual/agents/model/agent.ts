// The model execution agent (AgentVista style): the question and the task images as image parts, the memory
// payload injected once as the first message, then one tool per turn through `<tool>…</tool>` until
// `<answer>…</answer>`, at most 8 turns. At most 8 images stay in context: older ones are replaced by a note.
// An API failure is an InfraError (retried by the protocol, never scored as the memory's failure).
import type OpenAI from 'openai';
import type { MemoryPayload } from '../../../../memo-programs/contract.ts';
import type { ImageStore } from '../../../../sandbox/primitives/images.ts';
import { capImages } from '../../../../engine/llm/cap-images.ts';
import { clientFor } from '../../../../engine/llm/client.ts';
import type { RoleModel } from '../../../../engine/llm/models.ts';
import { fillPrompt, readPrompt } from '../../../../engine/llm/prompt-file.ts';
import { InfraError } from '../../../../engine/environment/contract.ts';
import { formatCall, parseAnswer, parseCall } from '../../tools/grammar.ts';
import { runTool, TOOL_NAMES, TOOLS } from '../../tools/index.ts';
import type { ToolWorld } from '../../tools/types.ts';
import { type AgentInput, type AgentRun, type AgentStep, MAX_TURNS, toolStep, type VisualAgent } from '../agent.ts';
import { asBuffer } from '../../../../foundation/bytes.ts';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Part = OpenAI.Chat.Completions.ChatCompletionContentPart;

export interface ModelAgentOptions {
  maxTurns?: number;
  /** Images kept in context (default 8). */
  maxImages?: number;
  /** Where payload images are looked up (by id). */
  images?: ImageStore;
}

const dataUrl = (png: Uint8Array, mime = 'image/png') => `data:${mime};base64,${asBuffer(png).toString('base64')}`;
const imagePart = (png: Uint8Array, mime?: string): Part => ({ type: 'image_url', image_url: { url: dataUrl(png, mime) } });
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
    const messages: Message[] = [{ role: 'system', content: fillPrompt(readPrompt(import.meta.url, './prompts/system.txt'), { tools, maxTurns: this.maxTurns }) }];
    if (payload.text.trim() || payload.images.length) {
      const parts: Part[] = [{ type: 'text', text: fillPrompt(readPrompt(import.meta.url, './prompts/memory.txt'), { memory: payload.text.trim() || '(images only)' }) }];
      for (const ref of payload.images) {
        const img = this.options.images?.has(ref.id) ? this.options.images.get(ref.id) : undefined;
        if (img) parts.push(imagePart(img.bytes, img.ref.mime));
      }
      messages.push({ role: 'user', content: parts });
    }
    const imageList = input.images.map((img, i) => `Image ${i + 1}: ${img.width}×${img.height} px.`).join('\n');
    messages.push({
      role: 'user',
      content: [
        { type: 'text', text: fillPrompt(readPrompt(import.meta.url, './prompts/task.txt'), { instruction: input.instruction, images: imageList }) },
        ...input.images.map((img) => imagePart(img.png)),
      ],
    });
    const steps: AgentStep[] = [];
    const tokens = { prompt: 0, completion: 0 };
    for (let turn = 1; turn <= this.maxTurns; turn++) {
      capImages(messages, this.maxImages, OMITTED.replace('{n}', String(this.maxImages)));
      const reply = await this.complete(messages, tokens);
      messages.push({ role: 'assistant', content: reply });
      const thought = reply.replace(/<tool>[\s\S]*?<\/tool>|<answer>[\s\S]*?<\/answer>/gi, '').replace(/^\s*thought:\s*/i, '').trim().slice(0, 600);
      const answer = parseAnswer(reply);
      if (answer !== undefined) {
        steps.push({ action: `<answer>${answer}</answer>`, ...(thought ? { thought } : {}) });
        return { answer, steps, tokens, memoryUse: payload.text.trim() ? 'given to the model' : 'none' };
      }
      const tag = reply.match(/<tool>([\s\S]*?)<\/tool>/i)?.[1]?.trim();
      const call = tag ? parseCall(tag, TOOL_NAMES) : undefined;
      const last = turn === this.maxTurns - 1 ? '\nOne turn left: give your <answer> next.' : '';
      if (!call) {
        const error = tag ? `unknown tool call "${tag.slice(0, 120)}"; tools: ${[...TOOL_NAMES].join(', ')}` : 'no <tool>…</tool> or <answer>…</answer> in the reply';
        steps.push({ action: tag ?? '(no action)', ...(thought ? { thought } : {}), error });
        messages.push({ role: 'user', content: `Format error: ${error}. Reply with one <tool>…</tool> or <answer>…</answer>.${last}` });
        continue;
      }
      const r = await runTool(formatCall(call), { images: input.images, world });
      const action = formatCall(call);
      steps.push(toolStep(action, r, thought));
      const observation = r.error ? `Error: ${r.error}` : (r.result?.text ?? '');
      const content: Part[] = [{ type: 'text', text: `Result of ${action}:\n${observation}${last}` }];
      if (r.result?.image) content.push(imagePart(r.result.image));
      messages.push({ role: 'user', content });
    }
    return { steps, tokens, memoryUse: payload.text.trim() ? 'given to the model' : 'none' };
  }

  private async complete(messages: Message[], tokens: { prompt: number; completion: number }): Promise<string> {
    try {
      const res = await clientFor(this.model).chat.completions.create({ model: this.model.model, messages, temperature: 0, max_tokens: 512 });
      tokens.prompt += res.usage?.prompt_tokens ?? 0;
      tokens.completion += res.usage?.completion_tokens ?? 0;
      return res.choices[0]?.message?.content ?? '';
    } catch (err) {
      throw new InfraError(`executor model ${this.model.model} failed: ${(err as Error).message}`, { cause: err });
    }
  }
}
