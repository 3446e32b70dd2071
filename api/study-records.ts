// What a study keeps of each finished piece (engine/study/study-file.ts), taken from what the individual calls return
// or left on disk: an evaluation's score and per-task rewards from evaluate()/baselines(), a search's pick with its
// validation and test rewards from its run folder (the evidence its evaluations wrote), its best score over steps
// from the run's journal (viewer/run-model.ts, the same numbers the viewer draws).
import { join, relative } from 'node:path';
import type { EvaluationResult } from '../engine/evaluate/records.ts';
import { readEvidenceLines } from '../engine/evaluate/evidence.ts';
import { bySourceScores, weightedScore } from '../engine/evaluate/stats.ts';
import { readSmallFile } from '../foundation/small-file.ts';
import type { StudyEvaluation, StudySearch, TaskRewards } from '../engine/study/study-file.ts';
import { z } from 'zod';
import { resolveInside } from '../foundation/safe-path.ts';
import { readRun } from '../viewer/run-model.ts';
import type { SearchResult } from './search.ts';

/** A path as the study records it: relative to the study folder, with forward slashes. */
export const studyPath = (studyDir: string, path: string): string => relative(studyDir, path).split('\\').join('/');

/** An evaluate()/baselines() result as the study keeps it. */
export function evaluationRecord(program: string, result: EvaluationResult, evidence: string | undefined): StudyEvaluation {
  const by = bySourceList(result.tasks);
  const metrics = Object.fromEntries(Object.entries(result.stats.metrics).slice(0, 64));
  return {
    program,
    score: result.score,
    tasks: result.tasks.length,
    rewards: result.tasks.map((t) => [t.taskId, t.reward] as [string, number | null]),
    ...(Object.keys(metrics).length ? { metrics } : {}),
    ...(by ? { bySource: by } : {}),
    ...(evidence ? { evidence } : {}),
  };
}

/** Each source's tasks and score, as the study keeps them (absent: one source). */
function bySourceList(tasks: readonly { source?: string | undefined; reward: number | null }[]): StudyEvaluation['bySource'] {
  const by = bySourceScores(tasks);
  return by ? Object.entries(by).map(([source, s]) => ({ source, tasks: s.tasks, score: s.score })) : undefined;
}

const RewardLine = z.looseObject({ taskId: z.string().max(1000), source: z.string().max(1000).optional(), reward: z.number().min(0).max(1).nullable().optional() });

/** The tasks and rewards of one evaluation's evidence (tasks.jsonl); a task scored twice keeps its mean. */
function evidenceRewards(runDir: string, evidence: string): { id: string; source?: string; reward: number | null }[] {
  const lines = readEvidenceLines(join(resolveInside(runDir, evidence), 'tasks.jsonl'), RewardLine).records;
  return lines.map((l) => ({ id: l.taskId, ...(l.source !== undefined ? { source: l.source } : {}), reward: typeof l.reward === 'number' ? l.reward : null }));
}

/** Per task the mean of its rewards over several evaluations (a program's validation samples). */
function meanPerTask(rows: { id: string; reward: number | null }[]): TaskRewards {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of rows) {
    const s = sums.get(r.id) ?? { sum: 0, n: 0 };
    if (r.reward !== null) {
      s.sum += r.reward;
      s.n++;
    }
    sums.set(r.id, s);
  }
  return [...sums].map(([id, s]) => [id, s.n ? s.sum / s.n : null]);
}

/** A finished search as the study keeps it: the pick, its search-validation and test scores and rewards, the curve. */
export function searchRecord(studyDir: string, seed: number, result: SearchResult): StudySearch {
  const runDir = result.runFolder;
  const run = readRun(runDir);
  const pick = run.nodes.find((n) => n.id === result.winner.id);
  const record: StudySearch = {
    seed,
    run: studyPath(studyDir, runDir),
    status: 'done',
    steps: result.steps,
    validation: result.winner.validation,
    ...(result.winner.selection !== undefined ? { selection: result.winner.selection } : {}),
    curve: run.steps.filter((p) => Number.isFinite(p.bestMean)).map((p) => ({ step: p.step, best: p.bestMean })),
  };
  if (!pick) return record;
  record.pick = { node: pick.id, program: studyPath(studyDir, join(runDir, pick.dir)) };
  const train = pick.evaluations.filter((e) => e.split === 'train' && e.score !== null);
  record.validationRewards = meanPerTask(train.flatMap((e) => evidenceRewards(runDir, e.evidence)));
  const test = pick.evaluations.filter((e) => e.split === 'test' && e.score !== null).at(-1);
  if (test) {
    const rows = evidenceRewards(runDir, test.evidence);
    const by = bySourceList(rows);
    record.test = {
      program: `${pick.id} (seed ${seed})`,
      score: test.score,
      tasks: rows.length,
      rewards: rows.map((r) => [r.id, r.reward]),
      ...(by ? { bySource: by } : {}),
      evidence: studyPath(studyDir, join(runDir, test.evidence)),
    };
  }
  return record;
}

const ResultsEntry = z.looseObject({
  name: z.string().max(4096),
  evidenceDir: z.string().max(4096).optional(),
  score: z.number().min(0).max(1).nullable().optional(),
  env: z.looseObject({ name: z.string().max(200).optional(), reward: z.string().max(500).optional() }).optional(),
});

/**
 * The evaluations a killed baselines() call finished before the kill (its results.json is rewritten after each
 * program): read back with their per-task rewards from their evidence, so a resumed study does not run them again.
 * Entries that are not inside the study, or whose evidence cannot be read, are left to run again.
 */
export function finishedFloor(studyDir: string, out: string, programs: readonly string[]): StudyEvaluation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readSmallFile(join(out, 'results.json'), 64 * 2 ** 20) ?? '[]');
  } catch {
    return [];
  }
  const entries = z.array(ResultsEntry).max(64).safeParse(raw);
  if (!entries.success) return [];
  const out_: StudyEvaluation[] = [];
  for (const e of entries.data) {
    if (!programs.includes(e.name) || !e.evidenceDir || e.score === undefined) continue;
    const rel = studyPath(studyDir, e.evidenceDir);
    try {
      const rows = evidenceRewards(studyDir, rel);
      const by = bySourceList(rows);
      // The evidence must give the score results.json recorded: a folder cut short or changed is run again.
      const again = weightedScore(rows);
      if (!rows.length || (again === null ? e.score !== null : e.score === null || Math.abs(again - e.score) > 1e-9)) continue;
      out_.push({ program: e.name, score: e.score, tasks: rows.length, rewards: rows.map((r) => [r.id, r.reward]), ...(by ? { bySource: by } : {}), evidence: rel });
    } catch {
      // Evidence outside the study or unreadable: evaluated again.
    }
  }
  return out_;
}
