// Replies a scripted meta model gives to the default one-call analysis: one entry per cluster the prompt shows,
// and a proposal.
const userText = (body: any): string => {
  const last = body?.messages?.at(-1)?.content;
  return typeof last === 'string' ? last : Array.isArray(last) ? String(last[0]?.text ?? '') : '';
};

/** A program analysis naming every cluster of the request, with the given summary and change. */
export function programAnalysisReply(body: any, summary = 'Return less.', change = 'return less'): string {
  const clusters = [...userText(body).matchAll(/^## Cluster "([^"]+)"/gm)].map((m) => ({ cluster: m[1] as string, relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change }] }));
  return JSON.stringify({ clusters, summary, changes: [{ change, why: 'the evidence says so' }] });
}
