// study() as a researcher runs it, on two tiny environments and one that does not exist: killed at a piece's
// boundary and inside a search, resumed without redoing what finished; the transfer matrix's diagonal equal to the
// searches' own test scores; study.md's numbers equal to what evaluate() gives for the same program, split and seed;
// a folder that is not a study refused, and a study's folder locked while it runs.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineEnvironment, evaluate, registerEnvironment, study, type StudyPhase, UsageError } from '../../api/index.ts';
import { readJournal } from '../../run-store/journal.ts';
import { StudyServer } from '../../api/runs.ts';
import { ToyEnvironment } from '../support/toy-env.ts';

const dir = mkdtempSync(join(tmpdir(), 'api-study-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

registerEnvironment(defineEnvironment({ name: 'study-toy-a', summary: 'door codes', load: () => new ToyEnvironment() }));
// The same doors with a smaller payload budget: a pick transfers to it with another score.
registerEnvironment(defineEnvironment({ name: 'study-toy-b', summary: 'door codes, small payloads', load: () => new ToyEnvironment({ maxChars: 60, maxImages: 0 }) }));

const options = { repeat: 2, budget: 1, meta: 'offline' as const, workers: 0, seeds: ['bm25'], designs: ['bm25', 'no-memory'] };
const line = (md: string, start: string) => md.split('\n').find((l) => l.startsWith(start)) ?? '';

describe('study()', () => {
  const out = join(dir, 'first');
  const phases: StudyPhase[] = [];

  it('is killed at a boundary and inside a search, and a resume finishes it without redoing what finished', async () => {
    // Killed as the second search of the first environment starts: its floor and first search are done.
    const killAt = (p: StudyPhase) => {
      if (p.kind === 'search' && p.env === 0 && p.seed === 1) throw new Error('killed at a boundary');
    };
    await expect(study({ env: ['study-toy-a', 'study-toy-b', 'no-such-env-here'], out, ...options, beforePhase: killAt })).rejects.toThrow('killed at a boundary');
    const after1 = JSON.parse(readFileSync(join(out, 'study.json'), 'utf8'));
    expect(after1.environments[0].searches.map((s: { seed: number; status: string }) => [s.seed, s.status])).toEqual([[0, 'done']]);

    // Killed inside the second environment's first search, as its step 1 starts (its step 0 is journaled).
    const killInside = (s: { env: number; seed: number }, step: number) => {
      if (s.env === 1 && s.seed === 0 && step === 1) throw new Error('killed inside a search');
    };
    await expect(study({ out, resume: true, workers: 0, beforeStep: killInside, onPhase: (p) => phases.push(p) })).rejects.toThrow('killed inside a search');
    expect(phases.filter((p) => p.kind === 'floor' && p.env === 0)).toEqual([]);
    phases.length = 0;

    const done = await study({ out, resume: true, workers: 0, onPhase: (p) => phases.push(p) });
    expect(done.study.status).toBe('finished');
    // Nothing finished was redone: no floor, and no search but the one killed inside (resumed from its journal).
    expect(phases.filter((p) => p.kind === 'floor' && p.env !== 2)).toEqual([]);
    expect(phases.filter((p) => p.kind === 'search').map((p) => (p.kind === 'search' ? [p.env, p.seed, p.resumed] : []))).toEqual([
      [1, 0, true],
      [1, 1, false],
    ]);
    const resumedRun = readJournal(join(out, done.study.environments[1]?.searches[0]?.run as string, 'journal.jsonl')).events;
    // Its step 0 ran once: two sessions, one evaluation of the seed at step 0.
    expect(resumedRun.filter((e) => e.type === 'start')).toHaveLength(2);
    expect(resumedRun.filter((e) => e.type === 'evaluation' && e.step === 0 && e.node === 'seed-bm25')).toHaveLength(1);
    const first = readJournal(join(out, done.study.environments[0]?.searches[0]?.run as string, 'journal.jsonl')).events;
    expect(first.filter((e) => e.type === 'start')).toHaveLength(1);
   }, 180_000);

  it('names the environment that failed to open, and the others go on', () => {
    const study = JSON.parse(readFileSync(join(out, 'study.json'), 'utf8'));
    expect(study.environments[2].error).toMatch(/no-such-env-here/);
    expect(study.environments[2].searches).toEqual([]);
    expect(study.environments[0].searches.every((s: { status: string }) => s.status === 'done')).toBe(true);
    expect(study.environments[1].searches.every((s: { status: string }) => s.status === 'done')).toBe(true);
    expect(readFileSync(join(out, 'study.md'), 'utf8')).toMatch(/\*\*Not run:\*\* cannot run no-such-env-here: .*not a registered environment/);
  });

  it("the transfer matrix's diagonal equals the searches' own test scores, each search alone", () => {
    const study = JSON.parse(readFileSync(join(out, 'study.json'), 'utf8'));
    for (const env of study.environments.slice(0, 2)) {
      for (const s of env.searches) {
        const cell = env.transfer.find((t: { seed: number; target: number }) => t.seed === s.seed && t.target === env.index);
        expect(cell.evaluation.score).toBe(s.test.score);
        expect(Object.fromEntries(cell.evaluation.rewards)).toEqual(Object.fromEntries(s.test.rewards));
      }
      // Off the diagonal too: every pick was evaluated on the other environment.
      expect(env.transfer.filter((t: { target: number }) => t.target !== env.index)).toHaveLength(2);
    }
  });

  it("study.md's numbers are what evaluate() gives for the same program, split and seed", async () => {
    const md = readFileSync(join(out, 'study.md'), 'utf8');
    const study = JSON.parse(readFileSync(join(out, 'study.json'), 'utf8'));
    const bm25 = await evaluate({ env: 'study-toy-b', program: 'bm25', split: 'test', seed: 0, splitSeed: 0, workers: 0, out: join(dir, 'check-bm25') });
    const section = md.slice(md.indexOf('## toy (`study-toy-b`)'));
    expect(line(section, '| **bm25**') || line(section, '| bm25')).toContain(`| ${bm25.score?.toFixed(3)} |`);
    const pick = study.environments[1].searches[1];
    const again = await evaluate({ env: 'study-toy-b', program: join(out, pick.pick.program), split: 'test', seed: pick.seed, splitSeed: 0, workers: 0, out: join(dir, 'check-pick') });
    expect(again.score).toBe(pick.test.score);
    expect(line(section, `| ${pick.seed} | ${pick.pick.node} |`)).toContain(`| ${again.score?.toFixed(3)} |`);
  });

  it('writes the tables and the page from study.json: Markdown, CSV, booktabs and inline SVG', () => {
    const md = readFileSync(join(out, 'study.md'), 'utf8');
    expect(md).toContain('protocol "update"');
    expect(md).toMatch(/Picks across seeds: test \d\.\d{3} ± \d\.\d{3} \(n = 2\)/);
    expect(md).toMatch(/cannot be told apart from bm25|is (better|worse) than bm25/);
    expect(md).toContain('## Transfer');
    const csv = readFileSync(join(out, 'study.csv'), 'utf8').split('\n');
    expect(csv[0]).toMatch(/^environment,kind,program,seed,tested_on/);
    expect(csv.filter((l) => l.includes(',pick,'))).toHaveLength(4);
    const tex = readFileSync(join(out, 'study.tex'), 'utf8');
    expect(tex).toContain('\\toprule');
    expect(tex).toContain('\\bottomrule');
    const html = readFileSync(join(out, 'study.html'), 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<svg/g)?.length).toBeGreaterThanOrEqual(5);
    expect(html).toContain('report.html');
    expect(existsSync(join(out, 'envs', '0-study-toy-a', 'seed-0', 'report.html'))).toBe(true);
  });

  it('reads back what a killed floor batch finished (results.json and evidence) instead of running it again; its folder is locked while it runs', async () => {
    const small = join(dir, 'floor-kill');
    // While it runs, its folder is locked: a second study of the same folder is refused.
    let second: unknown;
    const kill = async (p: StudyPhase) => {
      if (p.kind === 'floor') second ??= await study({ out: small, resume: true }).catch((err: Error) => err);
      if (p.kind === 'search') throw new Error('killed after the floor');
    };
    await expect(study({ env: ['study-toy-a'], out: small, ...options, repeat: 1, transfer: false, beforePhase: kill })).rejects.toThrow('killed after the floor');
    expect(String(second)).toMatch(/in use/);
    // As if the kill came after the batch's evaluations and before study.json recorded them.
    const path = join(small, 'study.json');
    const before = JSON.parse(readFileSync(path, 'utf8'));
    const finished = before.environments[0].floor.test;
    expect(finished.map((e: { program: string }) => e.program)).toEqual(['bm25', 'no-memory']);
    before.environments[0].floor.test = [];
    writeFileSync(path, JSON.stringify(before));
    const seen: StudyPhase[] = [];
    const done = await study({ out: small, resume: true, workers: 0, onPhase: (p) => seen.push(p) });
    expect(seen.filter((p) => p.kind === 'floor')).toEqual([]);
    const back = done.study.environments[0]?.floor.test ?? [];
    expect(back.map((e) => [e.program, e.score, e.tasks])).toEqual(finished.map((e: { program: string; score: number; tasks: number }) => [e.program, e.score, e.tasks]));
    expect(back.map((e) => Object.fromEntries(e.rewards))).toEqual(finished.map((e: { rewards: [string, number][] }) => Object.fromEntries(e.rewards)));
  });

  it('automemo view opens the study, each search linked to its run\'s own viewer', async () => {
    const server = new StudyServer(out);
    const url = await server.listen(0);
    try {
      expect(server.runViewers.size).toBe(4);
      const page = await (await fetch(url)).text();
      expect(page).toContain('<svg');
      for (const runUrl of server.runViewers.values()) {
        expect(page).toContain(`href="${runUrl}"`);
        expect((await fetch(`${runUrl}api/run`)).status).toBe(200);
      }
    } finally {
      await server.close();
    }
    await expect(new StudyServer(join(dir, 'nowhere')).listen(0)).rejects.toThrow(/does not exist/);
  });

  it('refuses a folder that is not a study, and one whose options a resume would change', async () => {
    const notStudy = join(dir, 'not-a-study');
    mkdirSync(notStudy);
    writeFileSync(join(notStudy, 'notes.txt'), 'mine');
    await expect(study({ out: notStudy, resume: true })).rejects.toThrow(/is not a study folder: it has no study\.json/);
    await expect(study({ env: ['study-toy-a'], out: notStudy, ...options })).rejects.toThrow(/not empty, and holds no study/);
    expect(readFileSync(join(notStudy, 'notes.txt'), 'utf8')).toBe('mine');
    const forged = join(dir, 'forged');
    mkdirSync(forged);
    writeFileSync(join(forged, 'study.json'), JSON.stringify({ format: 'automemo-study/1', environments: [{ folder: '../../etc' }] }));
    await expect(study({ out: forged, resume: true })).rejects.toThrow(UsageError);
    await expect(study({ out: forged, resume: true })).rejects.toThrow(/is not a valid study/);
    await expect(study({ out, resume: true, budget: 3 })).rejects.toThrow(/a resumed study keeps its options; leave out budget/);
    // A study whose folder another study holds: checked while the floor-kill study above runs.
  });
});
