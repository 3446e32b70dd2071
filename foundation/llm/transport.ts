// How a model request travels: over an HTTP client of its own whose deadlines are the role's timeoutMs, and sent
// once. Node's own client gives up waiting for response headers after 300 s and the OpenAI SDK then sends the
// request again, so a slow reasoning model still writing the first answer is asked (and paid) twice. Here the SDK
// never retries; this fetch retries only what the server cannot be working on: a connection that was never made
// (nothing was sent) and an answer saying the request was not done (rate limited, or failed with 500/502/503). A
// timeout, a connection lost after the request went out, or a gateway that stopped waiting (504, 524) is final.
// Each retry is noted with its reason for whoever asked (recordingRetries), so a journal can say it happened.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent, fetch as undiciFetch } from 'undici';

/** How long a model call may take, unless the role's timeoutMs says otherwise. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Retries of one request at most (each only when nothing is being worked on). */
export const MAX_RETRIES = 2;
/** The dispatcher's deadlines sit this far past the SDK's own, so the SDK's clear timeout error is the one seen. */
const GRACE_MS = 5_000;
/** setTimeout's largest delay. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** A server's Retry-After is followed up to this long. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Error codes of a connection that was never made: the request did not leave this process. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Statuses that say the server is not working on the request (it refused it or already failed it). */
const NOT_DONE = new Set([408, 429, 500, 502, 503]);

const retryLog = new AsyncLocalStorage<string[]>();

/** Runs `ask` noting into `retries` each retry its requests needed, with its reason. */
export function recordingRetries<T>(retries: string[], ask: () => Promise<T>): Promise<T> {
  return retryLog.run(retries, ask);
}

/** Why a failed fetch may be sent again (the connection was never made), or undefined when it may not. */
export function notSentReason(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT.has(code)) return `connection not made (${code})`;
  }
  return undefined;
}

function delayOf(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return 500 * 2 ** attempt;
}

function sleep(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type Fetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch for the OpenAI SDK whose headers and body deadlines follow `timeoutMs` (the SDK aborts at `timeoutMs`
 * itself), and which retries a request only when the server cannot be working on it.
 */
export function modelFetch(timeoutMs: number): Fetch {
  const deadline = Math.min(timeoutMs + GRACE_MS, MAX_DELAY_MS);
  // A connection of its own per request (pipelining 0: no keep-alive). A reused connection that the server closed
  // while it sat idle fails a request already written, which cannot be told from one the server received; on a
  // fresh connection, a failure before sending is a connection never made. A call takes seconds; a connect, less.
  const dispatcher = new Agent({ headersTimeout: deadline, bodyTimeout: deadline, pipelining: 0 });
  return async (url, init = {}) => {
    // A streamed body cannot be sent twice; the SDK's JSON bodies are strings.
    const resendable = init.body === undefined || init.body === null || typeof init.body === 'string';
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= MAX_RETRIES || !resendable;
      let res: Response;
      try {
        res = (await undiciFetch(url as never, { ...(init as object), dispatcher } as never)) as unknown as Response;
      } catch (err) {
        const why = notSentReason(err);
        if (!why || last || init.signal?.aborted) throw err;
        retryLog.getStore()?.push(why);
        await sleep(delayOf(attempt, null), init.signal);
        continue;
      }
      if (last || !NOT_DONE.has(res.status)) return res;
      retryLog.getStore()?.push(`answered ${res.status}`);
      await res.body?.cancel().catch(() => undefined);
      await sleep(delayOf(attempt, res.headers.get('retry-after')), init.signal);
    }
  };
}
