// The generic data path on real data: a part of a LoCoMo conversation (its first sessions and the questions they
// answer), written in the data format, scores every named program exactly as the built-in LoCoMo environment does
// on the same part (the whole set, both splits, ±0.005: npm run bench:data).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselines } from '../../../api/evaluate.ts';
import { locomoToDataLines } from '../../../envs/data/from-locomo.ts';
import { defaultLocomoDir } from '../../../envs/locomo/environment.ts';
import { loadConversations } from '../../../envs/locomo/load.ts';
import { BASELINES } from '../../../memo-programs/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'data-equivalence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SESSIONS = 6;

/** LoCoMo's raw conversation 26 cut to its first sessions and the questions whose evidence lies in them. */
function cutConversation(): Record<string, unknown> {
  const raw = JSON.parse(readFileSync(join(defaultLocomoDir(), '26.json'), 'utf8')) as Record<string, unknown>;
  const out: Record<string, unknown> = { speaker_a: raw.speaker_a, speaker_b: raw.speaker_b };
  for (let n = 1; n <= SESSIONS; n++) [`session_${n}`, `session_${n}_date_time`].forEach((k) => (out[k] = raw[k]));
  const inCut = (e: string) => Number(/^D(\d+):/.exec(e)?.[1] ?? Infinity) <= SESSIONS;
  out.qa = (raw.qa as { evidence?: string[] }[]).filter((q) => q.evidence?.length && q.evidence.every(inCut));
  return out;
}

describe('LoCoMo as data', () => {
  it('scores all seven named programs as the built-in LoCoMo environment does', async () => {
    mkdirSync(join(dir, 'locomo'));
    writeFileSync(join(dir, 'locomo', '26.json'), JSON.stringify(cutConversation()));
    const loaded = loadConversations(join(dir, 'locomo'));
    expect(loaded.warnings).toEqual([]);
    const file = join(dir, 'locomo.jsonl');
    writeFileSync(file, `${locomoToDataLines(loaded.conversations).join('\n')}\n`);
    const builtin = await baselines({ env: 'locomo', data: join(dir, 'locomo'), split: 'test', out: join(dir, 'a') });
    const data = await baselines({ env: `data:${file}`, split: 'test', out: join(dir, 'b') });
    expect(builtin.failures).toEqual([]);
    expect(data.failures).toEqual([]);
    const scores = (runs: typeof builtin) => Object.fromEntries(runs.rows.map((r) => [r.name, r.result.score]));
    expect(Object.keys(scores(data))).toEqual(BASELINES);
    for (const name of BASELINES) expect(Math.abs((scores(data)[name] as number) - (scores(builtin)[name] as number)), name).toBeLessThanOrEqual(0.005);
    // Not vacuous: the programs differ from each other, and both ask the same questions (dozens of them).
    expect(new Set(Object.values(scores(data)).map((s) => s?.toFixed(3))).size).toBeGreaterThan(3);
    const asked = (runs: typeof builtin) => runs.rows[0]?.result.tasks.map((t) => t.taskId).sort();
    expect(asked(data)).toEqual(asked(builtin));
    expect(asked(data)?.length).toBeGreaterThan(30);
  }, 180_000);
});
