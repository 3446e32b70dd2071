// One question to a role's model at temperature 0: the reply's text and its token counts. A failed call is an
// infrastructure error (retried and reported as such), never a wrong answer.
import type { RoleModel } from '../../foundation/llm/models.ts';
import { complete, type Tokens } from '../executor-model.ts';

export interface Reply {
  text: string;
  tokens: Tokens;
}

export async function askModel(model: RoleModel, role: string, prompt: string, maxTokens: number): Promise<Reply> {
  const { text, tokens } = await complete(model, role, [{ role: 'user', content: prompt }], maxTokens);
  return { text: text.trim(), tokens };
}
