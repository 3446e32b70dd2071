// Checks a payload that came out of the isolate: schema, known images, and the text and image budget.
// The evaluation harness truncates over-budget payloads and flags them; quick examination fails them.
import { createHash } from 'node:crypto';
import type { ImageRef, MemoryPayload } from '../memo-programs/contract.ts';
import type { ImageStore } from './primitives/images.ts';
import { MemoryPayloadSchema } from './schemas.ts';

export interface PayloadBudget {
  maxChars: number;
  maxImages: number;
}

export const DEFAULT_BUDGET: PayloadBudget = { maxChars: 50_000, maxImages: 2 };

/**
 * A payload as an agent receives it — its text, its images' ids, its metadata — as one sha256: equal digests, equal
 * behaviour. The one rule for "the same payload": quick examination's digests, the search's no-op check (from the
 * examination or from evidence read back), the outcome cache's key.
 */
export function payloadDigest(text: string, imageIds: readonly string[], metadata: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([text, imageIds, metadata ?? null]))
    .digest('hex');
}

/** What the isolate sends back from retrieve(): text possibly cut at the transfer cap, its real length, the rest as JSON. */
export interface WirePayload {
  text: string;
  textChars: number;
  rest: string;
  extraKeys: string[];
}

export interface PayloadCheck {
  /** The payload as the program returned it (text cut at the transfer cap when it was enormous). */
  payload: MemoryPayload;
  textChars: number;
  schemaIssues: string[];
  budgetIssues: string[];
}

/**
 * Largest images + metadata JSON the host parses. The isolate counts serialized characters against its own cap
 * (2,000,000 by default); escapes can make the JSON up to six times longer, never more.
 */
export const MAX_REST_CHARS = 12_000_016;

export function checkPayload(wire: WirePayload, budget: PayloadBudget, images?: ImageStore): PayloadCheck {
  const schemaIssues: string[] = [];
  let rest: { images?: unknown; metadata?: unknown } = {};
  if (wire.rest.length > MAX_REST_CHARS) {
    schemaIssues.push(`payload images/metadata are ${wire.rest.length.toLocaleString('en')} characters as JSON (at most ${MAX_REST_CHARS.toLocaleString('en')})`);
  } else {
    try {
      rest = JSON.parse(wire.rest);
    } catch {
      schemaIssues.push('payload images/metadata are not valid JSON');
    }
  }
  if (wire.extraKeys.length) schemaIssues.push(`payload has unknown keys: ${wire.extraKeys.join(', ')} (allowed: text, images, metadata)`);
  const candidate = { text: wire.text, images: rest.images, ...(rest.metadata !== undefined ? { metadata: rest.metadata } : {}) };
  const parsed = MemoryPayloadSchema.safeParse(candidate);
  let payload: MemoryPayload;
  if (parsed.success) {
    payload = parsed.data as MemoryPayload;
  } else {
    for (const issue of parsed.error.issues) schemaIssues.push(`payload.${issue.path.join('.') || '(root)'}: ${issue.message}`);
    payload = { text: wire.text, images: Array.isArray(rest.images) ? (rest.images as ImageRef[]) : [] };
  }
  if (images && parsed.success) {
    payload.images.forEach((img, i) => {
      if (!images.has(img.id)) schemaIssues.push(`payload.images.${i}.id "${img.id}" is not an image the host knows`);
    });
  }
  const budgetIssues: string[] = [];
  if (wire.textChars > budget.maxChars) {
    budgetIssues.push(`text is ${wire.textChars.toLocaleString('en')} characters; the budget is ${budget.maxChars.toLocaleString('en')}`);
  }
  if (payload.images.length > budget.maxImages) {
    budgetIssues.push(`${payload.images.length} images; the budget is ${budget.maxImages}`);
  }
  return { payload, textChars: wire.textChars, schemaIssues, budgetIssues };
}

/** Cuts a payload to the budget; `truncated` says whether anything was removed. */
export function applyBudget(payload: MemoryPayload, budget: PayloadBudget): { payload: MemoryPayload; truncated: boolean } {
  const text = payload.text.length > budget.maxChars ? payload.text.slice(0, budget.maxChars) : payload.text;
  const imgs = payload.images.slice(0, budget.maxImages);
  const truncated = text.length !== payload.text.length || imgs.length !== payload.images.length;
  return { payload: { ...payload, text, images: imgs }, truncated };
}
