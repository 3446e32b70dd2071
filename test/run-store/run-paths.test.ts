// Nothing a search is handed — a seed given as a path full of "..", a file name a model wrote — makes it write
// outside its run folder: the seed runs under a safe id, the model is asked again for a usable file name, and
// every file that was there before is untouched.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CostLedger } from '../../foundation/llm/ledger.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../engine/meta/model/agent.ts';
import { OfflineMetaAgent } from '../../engine/meta/offline/agent.ts';
import { runSearch } from '../../engine/search/search.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { closeHostServices } from '../../sandbox/primitives/index.ts';
import { readJournal } from '../../run-store/journal.ts';
import type { RunOptions } from '../../engine/search/run-options.ts';
import { OpenAITestServer } from '../support/openai-server.ts';
import { programAnalysisReply, withAnalysis } from '../support/meta-replies.ts';
import { purposeOf } from '../support/recorded-session.ts';
import { offlineServices } from '../support/services.ts';
import { ToyEnvironment } from '../support/toy-env.ts';
import { createToyRun } from '../support/toy-run.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await closeHostServices();
});

/** Every file under `dir` with its size and modification time, except under `skip`. */
function snapshot(dir: string, skip: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (p === skip) continue;
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${st.size}@${st.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

/** A scratch folder T with the run folder deep inside it (T/a/b/c/run), so ".." in a path has room to climb. */
function setup(options: Partial<RunOptions>) {
  const base = mkdtempSync(join(tmpdir(), 'run-paths-'));
  dirs.push(base);
  const { folder, opts } = createToyRun(join(base, 'a', 'b', 'c', 'run'), { budget: 0, seeds: [], ...options });
  return { base, folder, opts, env: new ToyEnvironment({ maxChars: 2000, maxImages: 0 }) };
}

describe('a search writes only inside its run folder', () => {
  it('runs a seed given as a path with ../ segments under a safe id; the files its raw path pointed at are untouched', async () => {
    const base = mkdtempSync(join(tmpdir(), 'run-paths-seed-'));
    dirs.push(base);
    const seedDir = join(base, 'prog', 'seeddir');
    mkdirSync(seedDir, { recursive: true });
    copyFileSync(resolveProgram('trajectory-retrieval').path, join(seedDir, 'index.ts'));
    // Climbs far enough that the path still names the seed from the working folder, while the old id
    // (`seed-<the path>`) would have put the seed's program and evidence outside the run folder.
    const seed = `${'../'.repeat(6)}${relative('/', seedDir)}`;
    expect(resolveProgram(seed).path).toBe(seedDir);
    const s = setup({ seeds: [seed] });
    const oldTarget = join(s.folder.dir, 'programs', `seed-${seed}`);
    expect(relative(s.folder.dir, oldTarget).startsWith('..')).toBe(true);
    mkdirSync(oldTarget, { recursive: true });
    writeFileSync(join(oldTarget, 'index.ts'), 'precious: not a program of this run');
    const before = { scratch: snapshot(s.base, s.folder.dir), seed: snapshot(base, '') };

    const summary = await runSearch({
      env: s.env,
      services: offlineServices(),
      meta: new OfflineMetaAgent(),
      folder: s.folder,
      options: s.opts,
      models: resolveModels({}, {}),
      ledger: new CostLedger(),
    });

    expect(summary.seeds.map((x) => x.id)).toEqual(['seed-seeddir']);
    const node = readJournal(s.folder.journalPath).events.find((e) => e.type === 'node' && e.kind === 'seed');
    expect(node).toMatchObject({
      id: 'seed-seeddir',
      dir: 'programs/seed-seeddir',
      description: `seed program ${seed}`,
    });
    expect(readdirSync(join(s.folder.dir, 'evidence', 'seed-seeddir'))).toEqual(['train-0']);
    expect(readFileSync(join(oldTarget, 'index.ts'), 'utf8')).toBe('precious: not a program of this run');
    expect(snapshot(s.base, s.folder.dir)).toEqual(before.scratch);
    expect(snapshot(base, '')).toEqual(before.seed);
  });

  describe('with a model meta agent', () => {
    let server: OpenAITestServer;
    afterAll(() => server?.close());

    it('asks the model again when its reply names a file outside the program, and writes nothing outside', async () => {
      server = await OpenAITestServer.start();
      const s = setup({ seeds: ['trajectory-retrieval'], budget: 1, meta: 'model' });
      const program = readFileSync(resolveProgram('trajectory-retrieval').path, 'utf8');
      const analysis = JSON.stringify({
        relevance: [],
        weaknesses: ['returns whole episodes'],
        suggestions: [{ priority: 1, change: 'return less' }],
      });
      const synthesis = JSON.stringify({
        summary: 'Return less.',
        changes: [{ change: 'return less', why: 'too long' }],
      });
      let generation = 0;
      server.onChat = (body) => {
        const purpose = purposeOf(body);
        if (purpose === 'analysis') return { content: analysis };
        if (purpose === 'synthesis') return { content: synthesis };
        if (purpose === 'program-analysis') return { content: programAnalysisReply(body) };
        if (purpose !== 'generation' && purpose !== 'proposal') return { content: '{}' };
        generation++;
        // First a reply that names a file outside the program (beside a good index.ts), then a usable one.
        return generation === 1
          ? {
              content: withAnalysis(
                body,
                `\`\`\`ts\n// file: ../../../../escape.ts\nexport const pwned = 1;\n\`\`\`\n\`\`\`ts\n// file: index.ts\n${program}\n\`\`\``,
              ),
            }
          : { content: withAnalysis(body, `\`\`\`ts\n// file: index.ts\n${program}\n\`\`\``) };
      };
      const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });
      const before = snapshot(s.base, s.folder.dir);
      const summary = await runSearch({
        env: s.env,
        services: offlineServices(),
        meta: new ModelMetaAgent(models.meta as never),
        folder: s.folder,
        options: { ...s.opts, ucb: { ...s.opts.ucb, cEval: 0 } },
        models,
        ledger: new CostLedger(),
      });
      expect(summary.generations).toBe(1);
      // The usable reply is the seed's own program: a child that changes nothing, not evaluated; the step tries
      // three times, then ends.
      expect(summary.noOps).toBe(3);
      const retry = server.chatRequests().find((b) => (b.messages[1]?.content as string).includes('could not be used'))
        ?.messages[1].content as string;
      expect(retry).toContain('file names must be plain relative paths ending in .ts');
      expect(retry).toContain('"../../../../escape.ts"');
      expect(snapshot(s.base, s.folder.dir)).toEqual(before);
      expect(Object.keys(snapshot(s.folder.dir, '')).filter((f) => f.endsWith('escape.ts'))).toEqual([]);
    });
  });
});
