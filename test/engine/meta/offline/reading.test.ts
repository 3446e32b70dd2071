// What the offline agent reads of a benchmark's ground truth comes from the explanation's fields: every gold answer
// of a question with several reaches it (a payload holding only the second still had the answer).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STRONG } from '../../../../engine/meta/offline/candidate.ts';
import { readEvidence } from '../../../../engine/meta/offline/reading.ts';
import { readPipeline } from '../../../../engine/meta/offline/stage-edit.ts';
import { vocabularyCandidates } from '../../../../engine/meta/offline/vocabulary.ts';
import { readProgramFiles } from '../../../../memo-programs/files.ts';
import { resolveProgram } from '../../../../memo-programs/registry.ts';
import { DataEnvironment } from '../../../../envs/data/environment.ts';
import { resolveModels } from '../../../../foundation/llm/models.ts';
import { ImageStore } from '../../../../sandbox/primitives/images.ts';
import { parentContext, scoredTask } from '../../../support/parent-context.ts';

const dir = mkdtempSync(join(tmpdir(), 'reading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the offline reading of failed tasks', () => {
  it('finds the answer in a payload that holds the second of two gold answers', () => {
    const path = join(dir, 'two-gold.jsonl');
    const session = (time: string, text: string, id: string) => ({ time, turns: [{ id, speaker: 'Ana', text }] });
    const questions = [
      { id: 'q1', question: 'Which server runs staging?', answers: ['the staging box', 'kestrel'] },
      { id: 'q2', question: 'Who joins next week?', answers: ['Carla'] },
    ];
    writeFileSync(
      path,
      `${JSON.stringify({ type: 'dataset', name: 'two-gold', scoring: 'answer-containment', trainShare: 0.5 })}\n${JSON.stringify(
        {
          type: 'world',
          id: 'w1',
          sessions: [
            session('2024-03-04T09:00:00Z', 'Staging moved last month.', 'w1:1'),
            session('2024-03-11T09:00:00Z', 'Carla joins next week.', 'w1:2'),
          ],
          questions,
        },
      )}\n`,
    );
    const env = DataEnvironment.load({ path, models: resolveModels({}, {}), images: new ImageStore() });
    expect(env.explain('q1')?.gold).toEqual(['the staging box', 'kestrel']);
    const ctx = parentContext([scoredTask('q1', 'all', 0), scoredTask('q2', 'all', 0)], {
      explain: (id) => env.explain(id),
      payloads: new Map([
        ['q1', 'Ana: we test on kestrel now'],
        ['q2', 'Ana: nobody new'],
      ]),
    });
    const r = readEvidence(ctx);
    expect({ failed: r.failed, traced: r.traced, found: r.found, missing: r.missing }).toEqual({
      failed: 2,
      traced: 2,
      found: 1,
      missing: 1,
    });
  });

  it("reads whether failed multiple-choice payloads lacked the gold choice or showed another beside it, and weighs each choice's evidence by it", () => {
    const choices = ['Postgres', 'Redis', 'Kafka'].map((text, i) => ({ letter: 'ABC'[i] as string, text, gold: i === 0 }));
    const ids = ['q1', 'q2', 'q3', 'q4'];
    const at = (payloads: string[]) =>
      parentContext(
        ids.map((id) => scoredTask(id, 'all', 0)),
        {
          explain: (id) => ({ question: `Which store does ${id} use?`, gold: ['Postgres'], choices }),
          payloads: new Map(ids.map((id, i) => [id, payloads[i] as string])),
        },
      );
    // Three of four showed Postgres beside Redis as fully; one lacked Postgres.
    const crowded = readEvidence(at(['Postgres or Redis', 'we tried Redis then Postgres', 'Kafka, Redis, Postgres', 'Kafka only']));
    expect(crowded.shape?.choiceMisses).toEqual({ failed: 4, absent: 0.25, crowded: 0.75 });
    const lacking = readEvidence(at(['nothing', 'Redis', 'Kafka', 'Postgres and Redis']));
    expect(lacking.shape?.choiceMisses).toEqual({ failed: 4, absent: 0.75, crowded: 0.25 });
    const pipeline = readPipeline(readProgramFiles(resolveProgram('pipeline').path));
    if (!pipeline) throw new Error('the pipeline seed reads as a pipeline');
    const weightOf = (ctx: ReturnType<typeof at>) =>
      Math.max(
        ...vocabularyCandidates(ctx, pipeline, readEvidence(ctx))
          .filter((c) => c.edits.some((e) => e.key === 'choiceEvidence' || e.key === 'choiceQueries'))
          .map((c) => c.weight),
      );
    // The evidence's first move where the gold choice was missing; a hint for the sweep's tier where it was crowded.
    expect(weightOf(at(['nothing', 'Redis', 'Kafka', 'Postgres and Redis']))).toBeGreaterThanOrEqual(STRONG);
    expect(weightOf(at(['Postgres or Redis', 'we tried Redis then Postgres', 'Kafka, Redis, Postgres', 'Kafka only']))).toBeLessThan(STRONG);
  });
});
