// What the benchmark's data is, read from what the agent is given (the example update episode, the update episodes'
// counts and meta fields, the validation tasks' explanations and instructions), never from its name: dialogue
// turns or past tasks with outcomes; whether those outcomes carry the checker's feedback (a note); what the memory
// could file its units under (a meta field naming a customer or a site, the speakers of a dialogue) and how many
// failed tasks name one; whether tasks list choices, and whether failed ones lacked the gold choice or showed it
// beside another. The vocabulary's edits (vocabulary.ts) are offered where the
// shape supports them.
import { contentTokens, ENGLISH_STOPWORDS } from '../../../memo-programs/lib/tokenize.ts';
import type { EpisodeField, OfflineParent } from '../types.ts';

export type EntitySource = 'meta' | 'speaker' | 'names';

export interface EntityEvidence {
  source: EntitySource;
  /** With source 'meta': the meta field. */
  field?: string;
  /** Share of the failed tasks whose question names one of its values. */
  failedNaming: number;
  /** The evidence in a clause. */
  why: string;
}

export interface DataShape {
  /** Update episodes are dialogue sessions (turns by speakers, with dates). */
  dialogue: boolean;
  /** Update episodes are past tasks with outcomes (procedures to follow or avoid). */
  tasksWithOutcomes: boolean;
  /** Share of the update episodes with outcomes that carry a note (the checker's feedback). */
  notes: number;
  /** What the memory could file units under, best evidence first. */
  entities: EntityEvidence[];
  /** Share of the scored tasks whose explanation lists choices. */
  choices: number;
  /**
   * Of the failed tasks that list choices: the share whose payload lacked the gold choice's words (the memory did not
   * show its evidence: looking for each choice's evidence may find it), and the share whose payload held them and as
   * fully another choice's (both shown: more evidence for every choice crowds the payload further).
   */
  choiceMisses: { failed: number; absent: number; crowded: number };
}

/** Share of a text's content words that a payload's words hold. */
function heldShare(text: string, have: ReadonlySet<string>): number {
  const w = contentTokens(text);
  return w.length ? w.filter((x) => have.has(x)).length / w.length : 0;
}

/** How the failed multiple-choice tasks' payloads showed their choices (DataShape.choiceMisses). */
function readChoiceMisses(ctx: OfflineParent, failed: { taskId: string }[]): DataShape['choiceMisses'] {
  let n = 0;
  let absent = 0;
  let crowded = 0;
  for (const t of failed) {
    const choices = ctx.explain(t.taskId)?.choices ?? [];
    const gold = choices.find((c) => c.gold);
    if (choices.length < 2 || !gold) continue;
    n++;
    const have = new Set(contentTokens((ctx.payloads.get(t.taskId) ?? '').slice(0, 200_000)));
    const g = heldShare(gold.text, have);
    if (g < 1) absent++;
    else if (choices.some((c) => !c.gold && heldShare(c.text, have) >= g)) crowded++;
  }
  return { failed: n, absent: n ? absent / n : 0, crowded: n ? crowded / n : 0 };
}

const MAX_TASKS = 400;

/** Capitalised words of a text that are not sentence openers or stopwords: the names it mentions. */
export function namesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.slice(0, 5000).matchAll(/(^|[^.!?]\s+)(\p{Lu}\p{Ll}{2,})\b/gu)) {
    const w = m[2] as string;
    if (m[1] === '' || ENGLISH_STOPWORDS.has(w.toLowerCase())) continue;
    out.push(w);
  }
  return out;
}

/**
 * A meta field files units apart within a memory when a world holds several of its values (a desk field, one per
 * world, files nothing apart) and a value recurs (a customer met once leaves nothing to carry to their next ticket).
 */
function filesApart(f: EpisodeField): boolean {
  return f.perWorld >= 2 && f.perValue >= 1.5;
}

export function readShape(ctx: OfflineParent): DataShape {
  const example = ctx.exampleEpisode;
  const dialogue = example?.meta?.kind === 'dialogue';
  const counts = ctx.updateEpisodes ?? [];
  const withOutcomes = counts.reduce((n, c) => n + c.success + c.failure, 0);
  const noted = counts.reduce((n, c) => n + (c.notes ?? 0), 0);
  const scored = (ctx.evaluation?.tasks ?? []).filter((t) => t.reward !== null).slice(0, MAX_TASKS);
  const failed = scored.filter((t) => (t.reward as number) < 1);
  const question = (id: string) => (ctx.explain(id)?.question ?? '').slice(0, 5000).toLowerCase();
  const failedQuestions = failed.map((t) => question(t.taskId));
  const share = (test: (q: string) => boolean) =>
    failedQuestions.length ? failedQuestions.filter(test).length / failedQuestions.length : 0;
  const entities: EntityEvidence[] = [];
  for (const f of ctx.episodeFields ?? []) {
    if (!filesApart(f)) continue;
    const values = f.values.map((v) => v.toLowerCase()).filter((v) => v.length >= 3);
    const naming = share((q) => values.some((v) => q.includes(v)));
    // Where the values looked at do not cover every task's entity, the episodes' own instructions say whether tasks name it.
    const failedNaming = Math.max(naming, failedQuestions.length ? f.named * (naming > 0 ? 1 : 0.5) : 0);
    if (failedNaming < 0.1) continue;
    entities.push({
      source: 'meta',
      field: f.field,
      failedNaming,
      why: `episodes are filed by ${f.field} (${f.perWorld.toFixed(1)} per world, ${f.perValue.toFixed(1)} episodes each) and ${Math.round(100 * failedNaming)}% of failed tasks name one`,
    });
  }
  const speakers = dialogue && Array.isArray(example?.meta?.speakers) && example.meta.speakers.length > 0;
  if (speakers) {
    const naming = failed.length
      ? failed.filter((t) => namesIn(ctx.explain(t.taskId)?.question ?? '').length > 0).length / failed.length
      : 0;
    if (naming >= 0.2)
      entities.push({
        source: 'speaker',
        failedNaming: naming,
        why: `dialogue turns have speakers and ${Math.round(100 * naming)}% of failed tasks name someone`,
      });
  }
  entities.sort((a, b) => b.failedNaming - a.failedNaming);
  const withChoices = scored.filter((t) => (ctx.explain(t.taskId)?.choices?.length ?? 0) >= 2).length;
  return {
    dialogue,
    tasksWithOutcomes: example !== undefined && !dialogue,
    notes: withOutcomes
      ? noted / withOutcomes
      : typeof example?.outcome?.note === 'string' && !dialogue && example.outcome.note.trim()
        ? 1
        : 0,
    entities,
    choices: scored.length ? withChoices / scored.length : 0,
    choiceMisses: readChoiceMisses(ctx, failed.slice(0, MAX_TASKS)),
  };
}
