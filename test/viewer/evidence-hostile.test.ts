// An evaluation's evidence folder, tampered with: a giant line, garbage, binary junk, a tasks.jsonl that is a
// folder or a link out of the run. The viewer and the report read what they can, count the rest as unreadable
// with the reason, and never show an unreadable file as an empty, healthy list.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  EVIDENCE_LIMITS,
  EvidenceWriter,
  QUESTION_CHARS,
  readEvidenceLines,
  TaskEvidenceSchema,
} from '../../engine/evaluate/evidence.ts';
import type { TaskRecord } from '../../engine/evaluate/evaluate.ts';
import { readEvidence } from '../../viewer/evidence-view.ts';
import { buildBundle } from '../../viewer/report.ts';
import { createToyRun } from '../support/toy-run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const task = (taskId: string, text = 'remembered') =>
  JSON.stringify({ taskId, world: 'w1', scenario: 's', reward: 1, payload: { text, images: [] } });

/** A run whose root has one evaluation; `tasks` is what its tasks.jsonl holds (a string, or a function that makes it). */
function makeRun(tasks: string | ((file: string) => void)): { dir: string; evidence: string } {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-hostile-'));
  dirs.push(dir);
  const { folder: folder } = createToyRun(dir, { budget: 0, seeds: [], seed: 0 });
  folder.writeProgram('root', { 'index.ts': 'export default 1;\n' });
  const evidence = 'evidence/root/train-0';
  mkdirSync(join(dir, evidence), { recursive: true });
  const file = join(dir, evidence, 'tasks.jsonl');
  if (typeof tasks === 'string') writeFileSync(file, tasks);
  else tasks(file);
  let t = 1;
  const line = (e: Record<string, unknown>) => `${JSON.stringify({ ...e, t: t++ })}\n`;
  writeFileSync(
    folder.journalPath,
    [
      line({ type: 'start', resumed: false, pid: 1 }),
      line({
        type: 'node',
        step: 0,
        id: 'root',
        parent: null,
        kind: 'root',
        dir: 'programs/root',
        hash: 'h',
        parentSnapshot: null,
      }),
      line({
        type: 'evaluation',
        step: 0,
        node: 'root',
        split: 'train',
        index: 0,
        score: 1,
        tasks: 5,
        evidence,
        stats: {},
        ms: 1,
      }),
      line({ type: 'step-done', step: 0 }),
    ].join(''),
  );
  return { dir, evidence };
}

describe('tampered evidence', () => {
  it('keeps the readable tasks and names every unreadable line: a giant one, garbage, binary junk, one cut off', () => {
    const giant = task('giant', 'x'.repeat(9 * 2 ** 20));
    const junk = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0x80, 0x81]).toString('latin1');
    const { dir, evidence } = makeRun(
      `${task('a')}\n${giant}\nGARBAGE\n${junk}\n{"taskId":"no reward"}\n${task('b')}\n{"taskId":"cut`,
    );
    const view = readEvidence(dir, evidence);
    expect(view?.tasks.map((t) => t.taskId)).toEqual(['a', 'b']);
    expect(view?.unreadable).toBe(5);
    expect(view?.problems).toEqual([
      expect.stringMatching(/^tasks\.jsonl line 2: 9\.\d MB, over the 8\.4 MB a line may hold$/),
      'tasks.jsonl line 3: not JSON',
      'tasks.jsonl line 4: not JSON',
      expect.stringMatching(/^tasks\.jsonl line 5: not a record of this file \(.*reward/),
      'tasks.jsonl line 7: not finished (being written, or cut off)',
    ]);
    // The static report carries the same count and reasons for the page to show.
    const bundle = buildBundle(dir);
    expect(bundle.evidence[evidence]).toMatchObject({ unreadable: 5, problems: view?.problems });
  });

  it('says when tasks.jsonl is a folder, a link out of the run, or the evidence folder is gone', () => {
    const folder = makeRun((file) => mkdirSync(file));
    expect(readEvidence(folder.dir, folder.evidence)).toMatchObject({
      tasks: [],
      problems: ['tasks.jsonl is not a file'],
    });

    const outside = mkdtempSync(join(tmpdir(), 'evidence-outside-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'secret.jsonl'), `${task('secret')}\n`);
    const linked = makeRun((file) => symlinkSync(join(outside, 'secret.jsonl'), file));
    expect(readEvidence(linked.dir, linked.evidence)).toMatchObject({
      tasks: [],
      problems: [expect.stringMatching(/link that leads outside the run folder/)],
    });

    const gone = makeRun('');
    rmSync(join(gone.dir, gone.evidence), { recursive: true });
    expect(readEvidence(gone.dir, gone.evidence)).toMatchObject({
      tasks: [],
      problems: ['the evidence folder evidence/root/train-0 is missing'],
    });
    expect(readEvidence(gone.dir, '../outside')).toBeNull();
  });

  it('reads a file over the total cap up to the cap, and says so; worlds.jsonl the same way', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-cap-'));
    dirs.push(dir);
    const file = join(dir, 'worlds.jsonl');
    writeFileSync(
      file,
      Array.from({ length: 100 }, (_, i) => JSON.stringify({ world: `w${i}`, episodes: 1 })).join('\n'),
    );
    const World = z.object({ world: z.string(), episodes: z.number() });
    const read = readEvidenceLines(file, World, { ...EVIDENCE_LIMITS, maxFileBytes: 1000 });
    expect(read.records.length).toBeGreaterThan(10);
    expect(read.records.length).toBeLessThan(100);
    expect(read.problems).toEqual(['worlds.jsonl is over 1 kB: only its first 1 kB were read']);
  });

  it('is never made by the writer: a task line over the cap is kept without its payload, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-writer-'));
    dirs.push(dir);
    const writer = new EvidenceWriter(dir);
    const record: TaskRecord = {
      taskId: 't1',
      world: 'w',
      scenario: 's',
      reward: 0.5,
      success: false,
      metrics: {},
      payloadChars: 9e6,
      payloadImages: 0,
      truncated: false,
      retrieveMs: 1,
      agentMs: 1,
      cached: false,
    };
    await writer.task(
      record,
      { text: 'y'.repeat(9 * 2 ** 20), images: [], metadata: { k: 'z'.repeat(1000) } },
      undefined,
    );
    await writer.task({ ...record, taskId: 't2' }, { text: 'small', images: [] }, undefined);
    const read = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema);
    expect(read.problems).toEqual([]);
    expect(read.records.map((r) => [r.taskId, r.payload?.text.length, r.reward])).toEqual([
      ['t1', 100_000, 0.5],
      ['t2', 5, 0.5],
    ]);
    expect(read.records[0]?.note).toMatch(
      /evidence line over 8\.4 MB: payload cut to 100,000 characters, metadata and trajectory left out/,
    );
  });

  it('keeps each task’s question, cut to a bound by the writer and again by the viewer, whatever a file holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-question-'));
    dirs.push(dir);
    const writer = new EvidenceWriter(dir);
    const record: TaskRecord = {
      taskId: 't1',
      world: 'w',
      scenario: 's',
      reward: 1,
      success: true,
      metrics: {},
      payloadChars: 1,
      payloadImages: 0,
      truncated: false,
      retrieveMs: 1,
      agentMs: 1,
      cached: false,
    };
    await writer.task(record, { text: 'p', images: [] }, undefined, 'What is the code for <b>door-0</b>?');
    await writer.task({ ...record, taskId: 't2' }, { text: 'p', images: [] }, undefined, 'q'.repeat(50_000));
    await writer.task({ ...record, taskId: 't3' }, { text: 'p', images: [] }, undefined, 42 as unknown as string);
    const lines = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema).records as { question?: string }[];
    expect(lines[0]?.question).toBe('What is the code for <b>door-0</b>?');
    expect(lines[1]?.question).toBe(`${'q'.repeat(QUESTION_CHARS)} … [${50_000 - QUESTION_CHARS} more characters]`);
    expect(lines[2]).not.toHaveProperty('question');
    // Written by someone else: a 1 MB question is cut when read; the writer's own cut passes as it is.
    const { dir: run, evidence } = makeRun(
      [JSON.stringify({ taskId: 'a', reward: 1, question: 'x'.repeat(2 ** 20) }), JSON.stringify(lines[1])].join('\n'),
    );
    const view = readEvidence(run, evidence);
    expect(view?.tasks.map((t) => t.question?.length)).toEqual([
      QUESTION_CHARS + ` … [${2 ** 20 - QUESTION_CHARS} more characters]`.length,
      lines[1]?.question?.length,
    ]);
    expect(view?.tasks[1]?.question).toBe(lines[1]?.question);
  });
});
