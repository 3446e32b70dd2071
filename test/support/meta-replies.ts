// Replies a scripted meta model gives to the default one-call analysis: one entry per cluster the prompt shows,
// and a proposal.
import { purposeOf } from './recorded-session.ts';

const userText = (body: any): string => {
  const last = body?.messages?.at(-1)?.content;
  return typeof last === 'string' ? last : Array.isArray(last) ? String(last[0]?.text ?? '') : '';
};

/** A program analysis naming every cluster of the request, with the given summary and change. */
export function programAnalysisReply(body: any, summary = 'Return less.', change = 'return less'): string {
  const clusters = [...userText(body).matchAll(/^## Cluster "([^"]+)"/gm)].map((m) => ({ cluster: m[1] as string, relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change }] }));
  return JSON.stringify({ clusters, summary, changes: [{ change, why: 'the evidence says so' }] });
}

/**
 * A scripted model's reply to `body`: `reply` as it is, or — for a child's one call (the default), which answers with
 * the analysis and then the edits — a program analysis of the request (`summary`, `change`) followed by it.
 */
export function withAnalysis(body: any, reply: string, summary?: string, change?: string): string {
  return purposeOf(body) === 'proposal' ? `${programAnalysisReply(body, summary, change)}\n${reply}` : reply;
}
