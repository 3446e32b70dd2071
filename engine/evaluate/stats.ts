// Aggregates of one evaluation: the score, per-scenario scores, payload sizes, latencies and primitive usage.
import type { InstanceUsage } from '../../sandbox/primitives/index.ts';
import type { UsageReport } from '../../sandbox/primitives/meter.ts';
import type { TaskRecord, WorldRecord } from './evaluate.ts';
import { keyedObject } from '../../foundation/keyed-object.ts';

export interface EvaluationStats {
  tasks: number;
  /** Tasks with a reward (infrastructure failures excluded). */
  scored: number;
  infraFailed: number;
  /** Tasks the program failed (throw, timeout, invalid payload, dead sandbox). */
  programFailed: number;
  truncated: number;
  /** Mean reward over scored tasks. */
  score: number | null;
  /** Mean of each reported metric over the tasks that have it. */
  metrics: Record<string, number>;
  byScenario: Record<string, { tasks: number; score: number | null }>;
  meanPayloadChars: number;
  retrieveP50Ms: number;
  retrieveP95Ms: number;
  updateMsPerEpisode: number;
  updateErrors: number;
  loadMs: number;
  usage: UsageReport;
  /** Largest kv and vector footprint of any world's memory. */
  peakKvBytes: number;
  peakVectorBytes: number;
  /** Model tokens: the agent's (executor role) and the programs' own (memo role). */
  tokens: { executor: { prompt: number; completion: number }; memo: { prompt: number; completion: number } };
}

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
  const retrieved = tasks.filter((t) => t.retrieveMs > 0).map((t) => t.retrieveMs);
  const episodes = worlds.reduce((n, w) => n + w.episodes, 0);
  return {
    tasks: tasks.length,
    scored: scored.length,
    infraFailed: tasks.filter((t) => t.infraError).length,
    programFailed: tasks.filter((t) => t.programError).length,
    truncated: tasks.filter((t) => t.truncated).length,
    score: scored.length ? mean(scored.map((t) => t.reward as number)) : null,
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
