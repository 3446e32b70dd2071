// What the failed tasks of an evaluation missed, from the offline evidence: the ground truth the environment
// explains (for LoCoMo, the evidence turns' ids) against the ids a pipeline's payload metadata names as shown and as
// ranked but cut. A gold unit is "cut" when it was ranked but did not fit, "neighbour" when a unit next to it (same
// id stem, index within 2) was shown, and "unseen" otherwise; a task is "split" when some of its gold units were
// shown and some not (a question needing two facts found only one). Each failed task's kind (asks when, names several
// people, asks how many or why) comes from the question its explanation states.
import { z } from 'zod';
import { asksWhen } from '../../../memo-programs/lib/time-focus.ts';
import { ENGLISH_STOPWORDS } from '../../../memo-programs/lib/tokenize.ts';
import type { OfflineParent } from '../types.ts';

export type MissKind = 'cut' | 'neighbour' | 'unseen';
export type FailedKind = 'time' | 'entities' | 'count' | 'reason' | 'other';

export interface MissReport {
  /** Failed tasks looked at (reward below 1). */
  failed: number;
  /** Of them, tasks whose payload metadata and explanation name unit ids. */
  traced: number;
  misses: Record<MissKind, number>;
  /** Traced tasks whose evidence is several units, some shown and some not: the second fact needs a second hop. */
  split: number;
  kinds: Record<FailedKind, number>;
}

/** A payload's metadata as a pipeline writes it; anything else (a program's own shape) is ignored. */
const PackedMetadata = z.looseObject({ units: z.array(z.string().max(200)).max(5000), cut: z.array(z.string().max(200)).max(5000).optional() });

/** The kind of a task from its wording (the engine's copy of the lib's routing rule, without the memory's names). */
export function failedKind(text: string): FailedKind {
  if (asksWhen(text)) return 'time';
  const names = new Set((text.match(/\b\p{Lu}\p{Ll}{2,}\b/gu) ?? []).filter((w) => !ENGLISH_STOPWORDS.has(w.toLowerCase())));
  if (names.size >= 2 || /\bboth\b/i.test(text)) return 'entities';
  if (/\bhow many\b|\bhow often\b/i.test(text)) return 'count';
  if (/\bwhy\b/i.test(text)) return 'reason';
  return 'other';
}

/** The id's shape with digit runs generalised ("D3:12" → /D\d+:\d+/), to tell ids of that shape. */
function shapeOf(id: string): string {
  return id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+');
}

function splitId(id: string): { stem: string; n: number } | undefined {
  const m = /^(.*?)(\d+)$/.exec(id);
  return m ? { stem: m[1] as string, n: Number(m[2]) } : undefined;
}

export function analyseMisses(ctx: Pick<OfflineParent, 'evaluation' | 'explain' | 'payloadMetadata'>, scenario?: string): MissReport {
  const report: MissReport = { failed: 0, traced: 0, misses: { cut: 0, neighbour: 0, unseen: 0 }, split: 0, kinds: { time: 0, entities: 0, count: 0, reason: 0, other: 0 } };
  const tasks = (ctx.evaluation?.tasks ?? []).filter((t) => t.reward !== null && t.reward < 1 && (!scenario || t.scenario === scenario)).slice(0, 2000);
  for (const t of tasks) {
    report.failed++;
    const explained = ctx.explain(t.taskId);
    report.kinds[failedKind(explained?.question ?? '')]++;
    const meta = PackedMetadata.safeParse(ctx.payloadMetadata?.get(t.taskId));
    if (!meta.success || !explained) continue;
    const shown = new Set(meta.data.units);
    const cut = new Set(meta.data.cut ?? []);
    const shapes = [...new Set([...shown, ...cut].slice(0, 50).map(shapeOf))];
    if (!shapes.length) continue;
    // The evidence records of the kind of unit the payload shows (turn ids against turn ids, not sessions).
    const shaped = new RegExp(`^(?:${shapes.join('|')})$`);
    const gold = new Set((explained.evidence ?? []).map((r) => r.id).filter((id) => shaped.test(id)));
    if (!gold.size) continue;
    report.traced++;
    let shownGold = 0;
    let missingGold = 0;
    const near = [...shown].map(splitId).filter((x): x is { stem: string; n: number } => x !== undefined);
    for (const id of gold) {
      if (shown.has(id)) {
        shownGold++;
        continue;
      }
      const g = splitId(id);
      if (cut.has(id)) report.misses.cut++;
      else if (g && near.some((s) => s.stem === g.stem && Math.abs(s.n - g.n) <= 2)) report.misses.neighbour++;
      else report.misses.unseen++;
      missingGold++;
    }
    if (shownGold && missingGold) report.split++;
  }
  return report;
}
