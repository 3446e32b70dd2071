// The study's check that a gain survives another reader: the best design's and each pick's test payloads (read back
// from their evidence, so nothing runs again) scored by every other reader the environment offers
// (Environment.readers: a second offline reader, evidence recall where the data cites evidence, evidence recall
// beside a model reader). engine/study/analysis.ts compares them and flags a gain that does not hold.
import { join } from 'node:path';
import { z } from 'zod';
import { analyzeEnv } from '../engine/study/analysis.ts';
import { readEvidenceLines } from '../engine/evaluate/evidence.ts';
import type { Protocol } from '../engine/environment/protocol.ts';
import type { StudyEnv, StudyReread, TaskRewards } from '../engine/study/study-file.ts';
import type { ResolvedModels } from '../foundation/llm/models.ts';
import { resolveInside } from '../foundation/safe-path.ts';
import { openNamed } from './environments.ts';
import { withHost } from './host.ts';

const PayloadLine = z.looseObject({ taskId: z.string().max(1000), payload: z.looseObject({ text: z.string() }).optional() });

export interface RereadContext {
  studyDir: string;
  models: ResolvedModels;
  splitSeed: number;
  protocol: Protocol;
  data?: string;
  onNote: (message: string) => void;
}

/** What is still to score: the best design and every finished pick, each under every reader, less what is recorded. */
function targets(env: StudyEnv): { program: string; seed?: number; evidence: string }[] {
  const best = analyzeEnv(env).best;
  const floor = best ? env.floor.test.find((e) => e.program === best.program) : undefined;
  const out: { program: string; seed?: number; evidence: string }[] = [];
  if (floor?.evidence) out.push({ program: floor.program, evidence: floor.evidence });
  for (const s of env.searches) if (s.status === 'done' && s.test?.evidence) out.push({ program: s.test.program, seed: s.seed, evidence: s.test.evidence });
  return out;
}

/** Scores the missing rereads of one environment; returns them (none when it offers no other reader). */
export async function rereadEnv(c: RereadContext, env: StudyEnv): Promise<StudyReread[]> {
  const todo = targets(env);
  if (!todo.length) return [];
  return withHost(c.models, async (services) => {
    const opened = await openNamed(env.spec, { models: c.models, images: services.images, seed: c.splitSeed, protocol: c.protocol, onNote: c.onNote, ...(c.data ? { data: c.data } : {}) });
    try {
      const readers = opened.env.readers?.() ?? [];
      const out: StudyReread[] = [];
      for (const reader of readers) {
        for (const t of todo) {
          const done = env.readers?.some((r) => r.reader === reader && r.program === t.program && r.seed === t.seed);
          if (done) continue;
          const lines = readEvidenceLines(join(resolveInside(c.studyDir, t.evidence), 'tasks.jsonl'), PayloadLine).records;
          const rewards: TaskRewards = [];
          for (const l of lines) {
            if (!l.payload) continue;
            const r = await opened.env.reread?.(reader, l.taskId, { text: l.payload.text, images: [] });
            if (r !== undefined) rewards.push([l.taskId, Math.max(0, Math.min(1, r))]);
          }
          const scored = rewards.map((r) => r[1]).filter((x): x is number => x !== null);
          out.push({ reader, program: t.program, ...(t.seed !== undefined ? { seed: t.seed } : {}), score: scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : null, rewards });
        }
      }
      return out;
    } finally {
      await opened.env.close?.();
    }
  });
}
