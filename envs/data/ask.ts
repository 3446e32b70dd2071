// One question to a role's model at temperature 0: the reply's text and its token counts. A failed call is an
// infrastructure error (retried and reported as such), never a wrong answer.
import { clientFor } from '../../foundation/llm/client.ts';
import type { RoleModel } from '../../foundation/llm/models.ts';
import { InfraError } from '../../engine/environment/contract.ts';

export interface Reply {
  text: string;
  tokens: { prompt: number; completion: number };
}

export async function askModel(model: RoleModel, role: string, prompt: string, maxTokens: number): Promise<Reply> {
  try {
    const res = await clientFor(model).chat.completions.create({ model: model.model, messages: [{ role: 'user', content: prompt }], temperature: 0, max_tokens: maxTokens });
    return { text: (res.choices[0]?.message?.content ?? '').trim(), tokens: { prompt: res.usage?.prompt_tokens ?? 0, completion: res.usage?.completion_tokens ?? 0 } };
  } catch (err) {
    throw new InfraError(`${role} model ${model.model} failed: ${(err as Error).message}`, { cause: err });
  }
}
