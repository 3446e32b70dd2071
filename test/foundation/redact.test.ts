// Credentials in an address (redis://:password@host, https://user:key@host) never reach what automemo prints or
// writes: error messages of every command (a --queue address with a bad port printed its password), the journal,
// evidence lines, the run's record of its models.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EvidenceWriter } from '../../engine/evaluate/evidence.ts';
import type { TaskRecord } from '../../engine/evaluate/evaluate.ts';
import { parseRedisUrl } from '../../engine/jobs/redis-url.ts';
import { describeModel, resolveModels } from '../../foundation/llm/models.ts';
import { redactCredentials } from '../../foundation/redact.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { Journal } from '../../run-store/journal.ts';
import { automemoInProcess } from '../support/cli.ts';

const SECRET = 's3cret-Pa55';
const work = mkdtempSync(join(tmpdir(), 'redact-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('redactCredentials', () => {
  it('hides the user and password of every address in a text, and nothing else', () => {
    expect(redactCredentials(`--queue "redis://:${SECRET}@10.0.0.5:99999" is not a URL`)).toBe(
      '--queue "redis://***@10.0.0.5:99999" is not a URL',
    );
    expect(
      redactCredentials(`at rediss://alice:${SECRET}@redis.lab:6380/2 and https://bob:${SECRET}@api.example/v1?x=1`),
    ).toBe('at rediss://***@redis.lab:6380/2 and https://***@api.example/v1?x=1');
    // A password with characters a URL would encode, written raw.
    expect(redactCredentials(`redis://:p/a@ss:w${SECRET}@host:1`)).not.toContain(SECRET);
    expect(redactCredentials('redis://10.0.0.5:6379 and https://api.example/v1, mail a@b.c')).toBe(
      'redis://10.0.0.5:6379 and https://api.example/v1, mail a@b.c',
    );
  });
});

describe('what automemo prints', () => {
  it('never shows the password of a --queue address it refuses or cannot reach, in any command', async () => {
    const data = `data:${join(repoRoot, 'examples', 'qa-data', 'team-notes.jsonl')}`;
    const cases = [
      ['worker', '--queue', `redis://:${SECRET}@127.0.0.1:99999`],
      ['worker', '--queue', `redis://:${SECRET}@127.0.0.1:1`],
      [
        'eval',
        '--env',
        data,
        '--program',
        'bm25',
        '--out',
        join(work, 'e1'),
        '--queue',
        `redis://:${SECRET}@127.0.0.1:99999`,
      ],
      [
        'baselines',
        '--env',
        data,
        '--programs',
        'bm25',
        '--out',
        join(work, 'e2'),
        '--queue',
        `rediss://admin:${SECRET}@127.0.0.1:1/3`,
      ],
    ];
    for (const args of cases) {
      const r = await automemoInProcess(...args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(`${r.out}${r.err}`, args.join(' ')).not.toContain(SECRET);
      expect(r.err, args.join(' ')).toMatch(/redis/);
    }
    expect(() => parseRedisUrl(`redis://:${SECRET}@h:99999`)).toThrow(/redis:\/\/\*\*\*@h:99999/);
  });

  it('never writes credentials into the journal, evidence lines, or the record of a model', async () => {
    const journal = new Journal(join(work, 'journal.jsonl'));
    const event = journal.append({
      type: 'stopped',
      step: 3,
      reason: `the meta model at https://bob:${SECRET}@api.example/v1 refused`,
      kind: 'infrastructure',
    });
    journal.close();
    expect(readFileSync(join(work, 'journal.jsonl'), 'utf8')).not.toContain(SECRET);
    expect(JSON.stringify(event)).not.toContain(SECRET);

    const evidence = new EvidenceWriter(join(work, 'evidence'));
    const task: TaskRecord = {
      taskId: 't',
      world: 'w',
      scenario: 's',
      reward: null,
      success: false,
      metrics: {},
      payloadChars: 0,
      payloadImages: 0,
      truncated: false,
      retrieveMs: 0,
      agentMs: 0,
      cached: false,
      infraError: `POST https://bob:${SECRET}@api.example/v1/chat failed`,
    };
    await evidence.task(task, { text: '', images: [] }, undefined);
    expect(readFileSync(join(work, 'evidence', 'tasks.jsonl'), 'utf8')).not.toContain(SECRET);

    const models = resolveModels(
      {},
      { AUTOMEMO_META_MODEL: 'm', OPENAI_BASE_URL: `https://bob:${SECRET}@api.example/v1`, OPENAI_API_KEY: 'k' },
    );
    expect(describeModel(models.meta)).toBe('m @ https://***@api.example/v1');
  });
});
