// CluE through a whole search (the library API, a module environment, the local model server): each generating
// step journals its clustering, the pool survives into the next step and a resume, and no task is summarised twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { search } from 'automemo';
import { resolveModels } from '../../foundation/llm/models.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { readJournal } from '../../run-store/journal.ts';
import { replay } from '../../engine/search/replay.ts';
import { stepDetail } from '../../viewer/node-detail.ts';
import { withAnalysis } from '../support/meta-replies.ts';
import { OpenAITestServer } from '../support/openai-server.ts';

let server: OpenAITestServer;
const work = mkdtempSync(join(tmpdir(), 'search-clue-'));
const summarised: string[] = [];
beforeAll(async () => {
  server = await OpenAITestServer.start();
  server.onChat = (body) => {
    const user = String(body.messages.at(-1).content);
    if (user.includes('scenario summariser')) {
      const ids = [...user.matchAll(/taskId: (\S+)/g)].map((m) => m[1] as string);
      summarised.push(...ids);
      // The model reads the scenario from the task text: warm families against cold ones.
      return {
        content: JSON.stringify({
          summaries: ids.map((id) => ({
            taskId: id,
            summary: /^(ember|tide)/.test(id) ? 'open a vault of a warm family' : 'open a vault of a cold family',
          })),
        }),
      };
    }
    if (user.includes('cluster manager')) {
      const ids = [...user.matchAll(/^(\S+): open a vault of a (warm|cold) family$/gm)];
      const first = user.includes('(empty: this is the first step)');
      return {
        content: JSON.stringify({
          operations: first
            ? [
                { op: 'create', id: 'warm', label: 'warm vaults', description: '' },
                { op: 'create', id: 'cold', label: 'cold vaults', description: '' },
              ]
            : [],
          assign: Object.fromEntries(ids.map((m) => [m[1], m[2]])),
        }),
      };
    }
    if (body.response_format?.type === 'json_object')
      return {
        content: JSON.stringify({
          relevance: [],
          weaknesses: ['w'],
          suggestions: [{ priority: 1, change: 'c' }],
          summary: 's',
          changes: [{ change: 'c' }],
        }),
      };
    return {
      content: withAnalysis(
        body,
        `\`\`\`ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nconst seen: string[] = [];\nexport const config = { n: ${summarised.length} };\nexport default defineMemo({ update(e) { seen.push(e.instruction); }, retrieve() { return { text: seen.join('\\n'), images: [] }; } });\n\`\`\``,
      ),
    };
  };
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a model search with CluE', () => {
  it("journals each step's clustering, carries the pool on (across a resume too) and summarises each task once", async () => {
    const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });
    const out = join(work, 'run');
    const env = join(repoRoot, 'examples', 'vault-env', 'env.ts');
    // c_e stays the paper's; with one seed the first steps generate from it.
    await search({ env, out, models, meta: 'model', seeds: ['bm25'], budget: 1, test: false, evalFraction: 1 });
    await search({ out, resume: true, budget: 2, models });
    const events = readJournal(join(out, 'journal.jsonl')).events;
    const r = replay(events);
    const generating = r.actions.filter((a) => a.kind === 'generate').map((a) => a.step);
    expect(generating.length).toBeGreaterThanOrEqual(1);
    // Every generating step clustered (a step whose child changed nothing tries again, and clusters again).
    expect([...new Set(r.clusterings.map((c) => c.step))]).toEqual(generating);
    // The pool is managed once for tasks it has not seen; the later step (after the resume) carries the pool the first
    // made on: it asks the manager only about new tasks, with that pool in the prompt, or not at all.
    const managed = server
      .chatRequests()
      .map((b) => String(b.messages.at(-1).content))
      .filter((p) => p.includes('cluster manager'));
    expect(managed.length).toBeGreaterThanOrEqual(1);
    expect(managed.length).toBeLessThanOrEqual(generating.length);
    expect(
      managed.slice(1).every((p) => p.includes('- warm [') && !p.includes('(empty: this is the first step)')),
    ).toBe(true);
    const later = r.clusterings.filter((c) => c.step !== generating[0]);
    for (const c of later)
      expect(c.source === 'model' && (c.notes.some((n) => /pool stands/.test(n)) || c.clusters.length > 0)).toBe(true);
    expect(r.clusterings[0]).toMatchObject({ source: 'model' });
    expect(r.cluePool.clusters.map((c) => c.label).sort()).toEqual(['cold vaults', 'warm vaults']);
    expect(new Set(summarised).size).toBe(summarised.length);
    const shown = stepDetail(events, generating[0] as number).clustering;
    expect(shown?.groups.map((g) => g.group).sort()).toEqual(['cold vaults', 'warm vaults']);
  }, 180_000);
});
