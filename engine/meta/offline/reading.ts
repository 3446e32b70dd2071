// What the offline agent reads of the benchmark in front of it, from the parent's latest evaluation and the
// environment's explanations: of the tasks that failed, how many had the answer in their payload (the memory found it
// and the agent still failed: too much else around it, or the wrong form) and how many did not (the memory missed
// it); of those with traceable unit ids, how many gold units were ranked but cut, next to a shown one, or never found;
// how full and how cut payloads are; which scenarios lag; and what the data is (dialogue turns with speakers and
// dates, or past tasks with outcomes), so that edits which assume a shape are offered only where the data has it.
import type { OfflineParent } from '../types.ts';
import { type DataShape, readShape } from './data-shape.ts';
import { goldTexts, holdsGold } from '../gold.ts';
import { weakScenario } from './diagnose.ts';
import { analyseMisses, type MissReport } from './miss-analysis.ts';
import { asksLatest, asksWhen, namedSpan } from '../../../memo-programs/lib/time-focus.ts';
import { ENGLISH_STOPWORDS } from '../../../memo-programs/lib/tokenize.ts';

export interface Reading {
  /** Tasks scored, and of them those below full reward. */
  scored: number;
  failed: number;
  /** Failed tasks whose explanation gives something to look for in the payload. */
  traced: number;
  /** Of those, the ones whose payload held it (found) and the ones whose payload did not (missing). */
  found: number;
  missing: number;
  /** Gold units by id: ranked but cut, next to a shown unit, never found (pipelines' metadata). */
  misses: MissReport;
  /** Mean payload size over the budget, and the shares of payloads that were cut or empty. */
  fill: number;
  truncated: number;
  empty: number;
  /** Scenarios scoring clearly below the mean, worst first. */
  weak: string[];
  /** Update episodes are dialogue sessions (turns by speakers, with dates). */
  dialogue: boolean;
  /** Update episodes are past tasks with outcomes (procedures to follow or avoid). */
  tasksWithOutcomes: boolean;
  /** Shown units per payload (pipelines' metadata), the median. */
  shownUnits?: number;
  /** Share of payload lines that repeat another line of the same payload (budget spent twice on one thing). */
  repeats: number;
  /** Shares of the validation tasks that ask about the latest state, ask when (or name a time), name several people. */
  asks: { latest: number; time: number; names: number };
  /** What the data is beyond that: feedback in outcomes, entities to file by, choices (data-shape.ts). */
  shape?: DataShape;
}

export function readEvidence(ctx: OfflineParent): Reading {
  const tasks = (ctx.evaluation?.tasks ?? []).filter((t) => t.reward !== null).slice(0, 5000);
  const failed = tasks.filter((t) => (t.reward as number) < 1);
  let traced = 0;
  let found = 0;
  for (const t of failed) {
    const gold = goldTexts(ctx.explain(t.taskId));
    if (!gold.length) continue;
    traced++;
    if (holdsGold(ctx.payloads.get(t.taskId) ?? '', gold)) found++;
  }
  const budget = Math.max(1, ctx.env.budget.maxChars);
  const n = Math.max(1, tasks.length);
  const score = ctx.evaluation?.score ?? 0;
  const weak = Object.entries(ctx.evaluation?.stats?.byScenario ?? {})
    .filter(([, s]) => weakScenario(s, score))
    .sort((a, b) => (a[1].score as number) - (b[1].score as number))
    .map(([name]) => name);
  const shape = readShape(ctx);
  return {
    scored: tasks.length,
    failed: failed.length,
    traced,
    found,
    missing: traced - found,
    misses: analyseMisses(ctx),
    fill: tasks.reduce((a, t) => a + t.payloadChars, 0) / n / budget,
    truncated: tasks.filter((t) => t.truncated).length / n,
    empty: tasks.filter((t) => t.payloadChars === 0).length / n,
    weak,
    dialogue: shape.dialogue,
    asks: asksOf(ctx.instructions ?? []),
    repeats: repeatShare(ctx.payloads),
    tasksWithOutcomes: shape.tasksWithOutcomes,
    shape,
    ...shownUnits(ctx),
  };
}

/** The share of payload lines (of at least 20 characters) that repeat a line above them in the same payload. */
function repeatShare(payloads: ReadonlyMap<string, string>): number {
  let lines = 0;
  let repeats = 0;
  for (const text of [...payloads.values()].slice(0, 2000)) {
    const seen = new Set<string>();
    for (const raw of text.split('\n').slice(0, 5000)) {
      // A line's words without a speaker prefix: the same thing said again by someone else is a repeat too.
      const line = raw.replace(/^[^:]{1,40}: /, '').trim().toLowerCase();
      if (line.length < 20) continue;
      lines++;
      if (seen.has(line)) repeats++;
      else seen.add(line);
    }
  }
  return lines ? repeats / lines : 0;
}

/** What the validation tasks ask, as shares. */
function asksOf(instructions: readonly string[]): Reading['asks'] {
  const n = Math.max(1, instructions.length);
  const share = (test: (s: string) => boolean) => instructions.filter(test).length / n;
  return {
    latest: share(asksLatest),
    time: share((s) => asksWhen(s) || namedSpan(s, 0) !== undefined),
    names: share((s) => new Set((s.match(/\b\p{Lu}\p{Ll}{2,}\b/gu) ?? []).filter((w) => !ENGLISH_STOPWORDS.has(w.toLowerCase()))).size >= 2),
  };
}

function shownUnits(ctx: OfflineParent): { shownUnits?: number } {
  const counts: number[] = [];
  for (const m of ctx.payloadMetadata?.values() ?? []) {
    const units = (m as { units?: unknown } | null)?.units;
    if (Array.isArray(units)) counts.push(units.length);
  }
  if (!counts.length) return {};
  counts.sort((a, b) => a - b);
  return { shownUnits: counts[Math.floor(counts.length / 2)] as number };
}
