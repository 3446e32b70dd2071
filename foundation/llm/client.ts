// One OpenAI SDK client per configured role; any OpenAI-compatible endpoint works.
import OpenAI from 'openai';
import type { RoleModel } from './models.ts';

const clients = new Map<string, OpenAI>();

export function clientFor(model: RoleModel): OpenAI {
  const key = `${model.baseURL ?? ''}\u0000${model.apiKey ?? ''}\u0000${model.timeoutMs ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({
      baseURL: model.baseURL,
      // Local OpenAI-compatible servers often take no key; the SDK insists on one.
      apiKey: model.apiKey ?? 'not-needed',
      timeout: model.timeoutMs ?? 120_000,
      maxRetries: 2,
    });
    clients.set(key, client);
  }
  return client;
}
