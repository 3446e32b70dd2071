// Aggregates of one evaluation: the score, per-scenario scores, payload sizes, latencies and primitive usage.
import type { InstanceUsage } from '../../sandbox/primitives/index.ts';
import type { UsageReport } from '../../sandbox/primitives/meter.ts';
import type { EvaluationStats, TaskRecord, WorldRecord } from './records.ts';
import { keyedObject } from '../../foundation/keyed-object.ts';

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function mergeUsage(usages: (InstanceUsage | null)[]): UsageReport {
  // Primitive names arrive in results from worker processes and other machines: data, not our own keys.
  const out: UsageReport = keyedObject();
  for (const u of usages) {
    if (!u) continue;
    for (const [name, p] of Object.entries(u.primitives)) {
      const o = (out[name] ??= { calls: 0, errors: 0, bytesIn: 0, bytesOut: 0, ms: 0 });
      o.calls += p.calls;
      o.errors += p.errors;
      o.bytesIn += p.bytesIn;
      o.bytesOut += p.bytesOut;
      o.ms = Math.round((o.ms + p.ms) * 100) / 100;
    }
  }
  return out;
}

/**
 * Score by source: per source the mean reward of its scored tasks. The score of an evaluation of a composed
 * environment is the mean of these (each source weighs the same, whatever its number of tasks); without sources it
 * is the mean over tasks. One definition, read by the evaluation, the search and the study alike.
 */
export function bySourceScores(tasks: readonly { source?: string | undefined; reward: number | null }[]): Record<string, { tasks: number; score: number | null }> | undefined {
  if (!tasks.some((t) => t.source !== undefined)) return undefined;
  const out = keyedObject<{ tasks: number; score: number | null }>();
  const sums = new Map<string, { sum: number; n: number }>();
  for (const t of tasks) {
    const key = t.source ?? 'unknown';
    const s = (out[key] ??= { tasks: 0, score: null });
    s.tasks++;
    const acc = sums.get(key) ?? { sum: 0, n: 0 };
    if (t.reward !== null) {
      acc.sum += t.reward;
      acc.n++;
    }
    sums.set(key, acc);
  }
  for (const [key, acc] of sums) (out[key] as { score: number | null }).score = acc.n ? acc.sum / acc.n : null;
  return out;
}

/** score = mean over tasks, or for a composed environment the mean of its sources' scores (bySourceScores). */
export function weightedScore(tasks: readonly { source?: string | undefined; reward: number | null }[]): number | null {
  const by = bySourceScores(tasks);
  if (by) {
    const scores = Object.values(by).map((s) => s.score).filter((x): x is number => x !== null);
    return scores.length ? mean(scores) : null;
  }
  const scored = tasks.filter((t) => t.reward !== null).map((t) => t.reward as number);
  return scored.length ? mean(scored) : null;
}

export function summarize(tasks: TaskRecord[], worlds: WorldRecord[], usage: UsageReport): EvaluationStats {
  const scored = tasks.filter((t) => t.reward !== null);
  const metricNames = new Set(tasks.flatMap((t) => Object.keys(t.metrics)));
  const metrics = keyedObject<number>();
  for (const m of metricNames) {
    // A task's metric names are data: only its own entries count ("constructor" is not Object's).
    const vals = tasks.map((t) => (Object.hasOwn(t.metrics, m) ? t.metrics[m] : undefined)).filter((v): v is number => v !== undefined);
    metrics[m] = mean(vals);
  }
  const byScenario: EvaluationStats['byScenario'] = keyedObject();
  for (const t of tasks) {
    const s = (byScenario[t.scenario] ??= { tasks: 0, score: null });
    s.tasks++;
  }
  for (const [name, s] of Object.entries(byScenario)) {
    const rs = scored.filter((t) => t.scenario === name).map((t) => t.reward as number);
    s.score = rs.length ? mean(rs) : null;
  }
  const bySource = bySourceScores(tasks);
  const retrieved = tasks.filter((t) => t.retrieveMs > 0).map((t) => t.retrieveMs);
  const episodes = worlds.reduce((n, w) => n + w.episodes, 0);
  return {
    tasks: tasks.length,
    scored: scored.length,
    infraFailed: tasks.filter((t) => t.infraError).length,
    programFailed: tasks.filter((t) => t.programError).length,
    truncated: tasks.filter((t) => t.truncated).length,
    score: weightedScore(tasks),
    ...(bySource ? { bySource } : {}),
    metrics,
    byScenario,
    meanPayloadChars: Math.round(mean(tasks.map((t) => t.payloadChars))),
    retrieveP50Ms: quantile(retrieved, 0.5),
    retrieveP95Ms: quantile(retrieved, 0.95),
    updateMsPerEpisode: episodes ? Math.round((worlds.reduce((n, w) => n + w.updateMs, 0) / episodes) * 10) / 10 : 0,
    updateErrors: worlds.reduce((n, w) => n + w.updateErrors.length, 0),
    loadMs: Math.round(mean(worlds.map((w) => w.loadMs))),
    usage,
    peakKvBytes: Math.max(0, ...worlds.map((w) => w.usage?.kvBytes ?? 0)),
    peakVectorBytes: Math.max(0, ...worlds.map((w) => w.usage?.vectorBytes ?? 0)),
    tokens: {
      executor: {
        prompt: tasks.reduce((n, t) => n + (t.tokens?.prompt ?? 0), 0),
        completion: tasks.reduce((n, t) => n + (t.tokens?.completion ?? 0), 0),
      },
      memo: {
        prompt: worlds.reduce((n, w) => n + (w.usage?.llmTokens.prompt ?? 0), 0),
        completion: worlds.reduce((n, w) => n + (w.usage?.llmTokens.completion ?? 0), 0),
      },
    },
  };
}
