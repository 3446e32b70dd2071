// One OpenAI SDK client per configured role; any OpenAI-compatible endpoint works. The SDK never retries: the
// transport does, only where the server cannot be working on the request (transport.ts), so a call may take as long
// as the role's timeoutMs and is sent once.
import OpenAI from 'openai';
import type { RoleModel } from './models.ts';
import { DEFAULT_TIMEOUT_MS, modelFetch } from './transport.ts';

const clients = new Map<string, OpenAI>();

export function clientFor(model: RoleModel): OpenAI {
  const timeout = model.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const key = `${model.baseURL ?? ''}\u0000${model.apiKey ?? ''}\u0000${timeout}`;
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({
      baseURL: model.baseURL,
      // Local OpenAI-compatible servers often take no key; the SDK insists on one.
      apiKey: model.apiKey ?? 'not-needed',
      timeout,
      maxRetries: 0,
      fetch: modelFetch(timeout),
    });
    clients.set(key, client);
  }
  return client;
}
