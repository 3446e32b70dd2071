// A parallel search as a user runs it: four steps in flight against a model with latency, a real kill -9, then
// --resume keeps every finished node and completes the budget.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { readJournal } from '../../run-store/journal.ts';
import { replay } from '../../engine/search/replay.ts';
import { automemoInProcessWithEnv, bin, cliEnv } from '../support/cli.ts';
import { withAnalysis } from '../support/meta-replies.ts';
import { OpenAITestServer } from '../support/openai-server.ts';

let server: OpenAITestServer;
const work = mkdtempSync(join(tmpdir(), 'search-parallel-'));
beforeAll(async () => {
  server = await OpenAITestServer.start();
  let programs = 0;
  server.onChat = (body) => {
    if (body.response_format?.type === 'json_object') {
      return {
        content: JSON.stringify({
          relevance: [],
          weaknesses: ['w'],
          suggestions: [{ priority: 1, change: 'keep more' }],
          summary: 's',
          changes: [{ change: 'keep more' }],
          summaries: [],
          operations: [],
          assign: {},
        }),
      };
    }
    programs++;
    const program = [
      '// file: index.ts',
      "import { defineMemo } from 'automemo/contract';",
      `export const config = { maxChars: 4000, variant: ${programs} };`,
      'const seen: string[] = [];',
      'export default defineMemo({',
      '  update(episode) { seen.push(`${episode.instruction} -> ${episode.outcome.success ? "ok" : "failed"}`); },',
      '  retrieve() { return { text: seen.join("\\n").slice(0, config.maxChars), images: [] }; },',
      '});',
    ].join('\n');
    // Slow enough that the kill below finds several steps waiting on the model.
    return { content: withAnalysis(body, `\`\`\`ts\n${program}\n\`\`\``), delayMs: 1500 };
  };
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** The model this file's searches use: the test's server. */
const modelEnv = () => ({ OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });
const env = () => ({ ...cliEnv, ...modelEnv() });
/** The CLI in a child process, without blocking this process (the model server lives here). */
function start(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited, output: () => ({ out, err }) };
}

describe('automemo search --parallel', () => {
  it('survives kill -9 with steps in flight: --resume keeps every finished node and completes the budget', async () => {
    const out = join(work, 'run');
    const envModule = join(repoRoot, 'examples', 'vault-env', 'env.ts');
    const first = start([
      'search',
      '--env',
      envModule,
      '--meta',
      'model',
      '--seeds',
      'bm25',
      '--budget',
      '8',
      '--parallel',
      '4',
      '--no-test',
      '--seed',
      '2',
      '--out',
      out,
    ]);
    const journal = join(out, 'journal.jsonl');
    const state = () => {
      if (!existsSync(journal)) return { done: 0, inFlight: 0 };
      const text = readFileSync(journal, 'utf8');
      const done = new Set(
        [...text.matchAll(/"type":"step-done","step":(\d+)/g)].map((m) => Number(m[1])).filter((s) => s > 0),
      );
      const acted = new Set([...text.matchAll(/"type":"action","step":(\d+)/g)].map((m) => Number(m[1])));
      return { done: done.size, inFlight: [...acted].filter((s) => !done.has(s)).length };
    };
    const deadline = Date.now() + 180_000;
    let seen = state();
    while (Date.now() < deadline && !(seen.done >= 1 && seen.inFlight >= 2)) {
      await new Promise((r) => setTimeout(r, 50));
      seen = state();
    }
    first.child.kill('SIGKILL');
    expect(seen.inFlight, 'steps in flight when the kill was sent').toBeGreaterThanOrEqual(2);
    await first.exited;
    const before = replay(readJournal(journal).events);
    const kept = [...before.tree.nodes.values()].map((n) => [n.id, n.scores] as const);
    expect(before.doneSteps.length).toBeGreaterThanOrEqual(1);

    // The resume in this process (the kill is what needs a process of its own).
    const resumed = await automemoInProcessWithEnv(modelEnv(), 'search', '--resume', '--out', out);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toContain('(4 in flight)');
    const after = replay(readJournal(journal).events);
    expect(after.doneSteps).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const [id, scores] of kept) expect(after.tree.get(id).scores.slice(0, scores.length)).toEqual(scores);
    // Every step's action counted once: the killed session's unfinished steps were dropped and done again.
    expect(after.actions.map((a) => a.step).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }, 300_000);
});
