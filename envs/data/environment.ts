// A benchmark from a data file (format.ts, README.md): a world per history, its sessions the update episodes in
// order (the clock at each session's time), its questions the retrieve tasks, split about 1:4 train:test by a
// seeded hash of each question's id (stable when data is added), scored by the rule the dataset names.
import type { EpisodeRecorder, ImageRef, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import type {
  Environment,
  EnvironmentGuide,
  EnvironmentInfo,
  EvidenceRecord,
  Explanation,
  Split,
  TaskOutcome,
  World,
} from '../../engine/environment/contract.ts';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import { resolveInside } from '../../foundation/safe-path.ts';
import { ContentError } from '../../foundation/usage-error.ts';
import { readSmallBytes } from '../../foundation/small-file.ts';
import type { PayloadBudget } from '../../sandbox/payload.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { splitReport, trainIds } from '../split.ts';
import { LIMITS, type QuestionRecord, type TurnRecord } from './format.ts';
import { type Dataset, type LoadedWorld, loadDataset } from './load.ts';
import { questionTask, sessionEpisode, sessionLabel } from './records.ts';
import { createScorer, goldAnswers, goldChoice, needs, readsAnswer, type Scorer } from './scoring.ts';
import { EXPLANATION_LIMITS, letteredChoices, withinLimits } from '../../engine/environment/explanation.ts';
import { SECOND_READER, secondChoice, secondContainment } from '../scoring/second-reader.ts';
import { EVIDENCE_RECALL_RULE, evidenceRecall } from '../scoring/evidence-recall.ts';
import { historySample } from '../history-samples.ts';

const DEFAULT_BUDGET: PayloadBudget = { maxChars: 4000, maxImages: 2 };
/** Where automemo/lib's renderUnits cuts a unit unless told otherwise (memo-programs/lib/units.ts). */
const UNIT_CHARS = 1200;

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** 'left out: world "w3" (12 questions), x.jsonl:9 (unread: not JSON …)', or undefined when every world and line loaded. */
function leftOutLine(data: Dataset): string | undefined {
  if (!data.leftOut.length) return undefined;
  const shown = data.leftOut.slice(0, 8).map((w) => {
    if (w.questions === undefined) return `${w.where} (unread: ${w.why.split(';')[0]})`;
    return `${w.id !== undefined ? `world ${JSON.stringify(w.id)}` : `the world at ${w.where}`} (${plural(w.questions, 'question')})`;
  });
  const more = data.leftOut.length > 8 ? ` and ${data.leftOut.length - 8} more` : '';
  return `left out: ${shown.join(', ')}${more}`;
}

export interface DataOptions {
  path: string;
  seed?: number;
  models: Pick<ResolvedModels, 'executor' | 'judge'>;
  images: ImageStore;
  onNote?: (message: string) => void;
  /**
   * Refuse a dataset a world of which was left out whole, or a line of which could not be read (a ContentError naming
   * each by file:line), instead of noting it.
   */
  strict?: boolean;
}

export class DataEnvironment implements Environment {
  private readonly questions = new Map<string, { world: LoadedWorld; q: QuestionRecord }>();
  /** Every world's turns by id, with their session index: built once, read for every scored task. */
  private readonly turns = new Map<string, Map<string, { t: TurnRecord; session: number }>>();
  private readonly scorer: Scorer;
  private readonly seed: number;
  private readonly trainShare: number;
  /** Questions of the train split (validation): the seeded share, at least 30 when the dataset states none. */
  private readonly train: Set<string>;
  private readonly budget: PayloadBudget;
  private episodes: Promise<Map<string, EpisodeRecorder[]>> | undefined;

  private constructor(
    readonly data: Dataset,
    private readonly options: DataOptions,
  ) {
    this.scorer = createScorer(data.header.scoring, options.models);
    this.seed = options.seed ?? 0;
    this.trainShare = data.header.trainShare ?? 0.2;
    this.budget = data.header.budget ?? DEFAULT_BUDGET;
    for (const world of data.worlds) {
      for (const q of world.questions) this.questions.set(q.id, { world, q });
      this.turns.set(
        world.id,
        new Map(world.sessions.flatMap((s, session) => s.turns.map((t) => [t.id, { t, session }] as const))),
      );
    }
    const scorable = [...this.questions.values()].filter(({ q }) => this.scorer.scorable(q)).map(({ q }) => q.id);
    this.train = trainIds(scorable, {
      seed: this.seed,
      trainShare: this.trainShare,
      stated: data.header.trainShare !== undefined,
    });
    const unscorable = this.questions.size - scorable.length;
    if (unscorable === this.questions.size)
      throw new ContentError(
        `dataset ${options.path}: no question has what scoring "${data.header.scoring}" needs (${needs(data.header.scoring)})`,
      );
    if (unscorable)
      data.warnings.push(
        `${unscorable} questions lack what scoring "${data.header.scoring}" needs (${needs(data.header.scoring)}) and are not scored`,
      );
  }

  static load(options: DataOptions): DataEnvironment {
    const data = loadDataset(options.path);
    const lost = leftOutLine(data);
    if (options.strict && lost)
      throw new ContentError(
        `dataset ${options.path}: ${lost} (--strict):\n${data.leftOut
          .slice(0, 12)
          .map((w) => `  - ${w.where}: ${w.why}`)
          .join('\n')}`,
      );
    const env = new DataEnvironment(data, options);
    const rule = env.data.header.scoring;
    if (readsAnswer(rule) && env.scorer.mode === 'offline') {
      env.data.warnings.push(
        `scoring "${rule}" runs offline: ${rule === 'multiple-choice' ? 'a rule-based reader picks the choice whose words the payload holds most (a tie goes to the first of them)' : 'an extractive reader answers with the payload line closest to the question'}; set AUTOMEMO_EXECUTOR_MODEL for a model's answers`,
      );
    }
    const long = env.longEvidence();
    if (long) env.data.warnings.push(long);
    for (const w of env.data.warnings) options.onNote?.(`data: ${w}`);
    options.onNote?.(`data: ${env.summaryLine()}`);
    return env;
  }

  /** What loaded and what did not, in a line: "8 worlds, 120 questions (96 scored); left out: world "w3" (12 questions)". */
  summaryLine(): string {
    const scored = [...this.questions.values()].filter(({ q }) => this.scorer.scorable(q)).length;
    const lost = leftOutLine(this.data);
    return `${this.data.header.name}: ${plural(this.data.worlds.length, 'world')}, ${plural(this.questions.size, 'question')} (${scored} scored)${lost ? `; ${lost} (--strict refuses this)` : ''}`;
  }

  /**
   * Evidence turns longer than the standard designs' unit (automemo/lib renderUnits cuts a unit at 1,200 characters):
   * evidence recall needs a turn whole (or 70% of its words in one paragraph), so these designs cannot cover them.
   */
  private longEvidence(): string | undefined {
    if (this.data.header.scoring !== 'evidence-recall') return undefined;
    let long = 0;
    let all = 0;
    for (const { world, q } of this.questions.values()) {
      const turns = this.turns.get(world.id);
      for (const id of q.evidence ?? []) {
        all++;
        if ((turns?.get(id)?.t.text.length ?? 0) > UNIT_CHARS) long++;
      }
    }
    if (!long) return undefined;
    return `${long} of ${all} evidence turns are longer than ${UNIT_CHARS.toLocaleString('en')} characters, where bm25, dense and g-memory cut a unit (automemo/lib's renderUnits): a turn cut short is not covered (evidence recall needs it whole, or 70% of its words in one paragraph), so those designs score 0 on them; a program that shows long turns whole can`;
  }

  info(): EnvironmentInfo {
    const scored = [...this.questions.values()].filter(({ q }) => this.scorer.scorable(q)).map(({ q }) => q);
    return {
      name: this.data.header.name,
      mode: this.scorer.mode,
      reward: `${this.data.header.scoring}${this.scorer.mode === 'model' ? ` (${this.scorer.id})` : ''}`,
      budget: this.budget,
      agentId: this.scorer.id,
      deterministic: this.scorer.deterministic,
      // Where the files sit is left out (a worker may hold them elsewhere): their names and content hashes say it.
      data: {
        files: this.data.files,
        worlds: this.data.worlds.length,
        questions: this.questions.size,
        scored: scored.length,
        split: {
          seed: this.seed,
          trainShare: this.trainShare,
          byScenario: splitReport(
            scored,
            (q) => q.id,
            (q) => q.scenario ?? 'all',
            { seed: this.seed, trainShare: this.trainShare },
            (id) => this.train.has(id),
          ),
        },
        warnings: this.data.warnings,
      },
    };
  }

  /**
   * Every world's sessions as episodes, turn images put into the host's store once. An image that cannot be used
   * now (no image a decoder reads, or a file changed since the dataset loaded) is left out of its step, with a note
   * naming its line: one picture never costs a whole evaluation.
   */
  private allEpisodes(): Promise<Map<string, EpisodeRecorder[]>> {
    this.episodes ??= (async () => {
      const out = new Map<string, EpisodeRecorder[]>();
      for (const world of this.data.worlds) {
        const refs = new Map<string, ImageRef>();
        for (const s of world.sessions) {
          for (const t of s.turns) {
            if (!t.image) continue;
            const ref = await this.image(world, t.image.path, t.image.caption);
            if (typeof ref !== 'string') refs.set(t.id, ref);
            else
              this.options.onNote?.(
                `data: ${world.where}: world "${world.id}", turn "${t.id}": image ${JSON.stringify(t.image.path.slice(0, 200))} ${ref}; left out`,
              );
          }
        }
        out.set(
          world.id,
          world.sessions.map((_, i) => sessionEpisode(this.data.header.name, world, i, refs)),
        );
      }
      return out;
    })();
    return this.episodes;
  }

  /**
   * A turn's image (checked when the dataset loaded: inside its data file's folder, bounded in size and count), read
   * again within the same bounds and never through a link, so a file swapped since cannot lead out or grow; or why
   * it cannot be used.
   */
  private async image(world: LoadedWorld, path: string, caption: string | undefined): Promise<ImageRef | string> {
    let bytes: Buffer | undefined;
    try {
      bytes = readSmallBytes(resolveInside(world.baseDir, path), LIMITS.imageBytes);
    } catch (err) {
      return `cannot be read now (${(err as Error).message.split('\n')[0]})`;
    }
    if (!bytes) return 'is gone';
    try {
      return await this.options.images.put(bytes, caption ? { caption } : {});
    } catch (err) {
      return `is not an image that can be read (${(err as Error).message.split('\n')[0]})`;
    }
  }

  async worlds(split: Split): Promise<World[]> {
    const episodes = await this.allEpisodes();
    return this.data.worlds.map((world) => ({
      id: world.id,
      episodes: episodes.get(world.id) ?? [],
      episodeTimes: world.times,
      tasks: world.questions
        .filter((q) => this.scorer.scorable(q) && this.train.has(q.id) === (split === 'train'))
        .map((q) => questionTask(this.data.header.name, world, q)),
      retrieveTime: (world.times[world.times.length - 1] as number) + 86_400_000,
      ...(world.asked.size ? { taskTimes: world.asked } : {}),
    }));
  }

  /** The readers beside the reward's (envs/scoring/second-reader.ts; evidence recall where questions cite evidence). */
  readers(): string[] {
    const rule = this.data.header.scoring;
    const out: string[] = [];
    if (
      rule === 'multiple-choice' ||
      rule === 'answer-containment' ||
      rule === 'f1' ||
      rule === 'exact-match' ||
      rule === 'llm-judge'
    )
      out.push(SECOND_READER);
    if (rule !== 'evidence-recall' && [...this.questions.values()].some(({ q }) => (q.evidence?.length ?? 0) > 0))
      out.push('evidence-recall');
    return out;
  }

  async reread(reader: string, taskId: string, payload: MemoryPayload): Promise<number | undefined> {
    const found = this.questions.get(taskId);
    if (!found) return undefined;
    const { world, q } = found;
    if (reader === 'evidence-recall') {
      const turns = this.turns.get(world.id);
      const evidence = (q.evidence ?? []).map((id) => turns?.get(id)?.t).filter((t) => t !== undefined);
      return evidence.length ? evidenceRecall(payload.text, evidence).recall : undefined;
    }
    if (reader !== SECOND_READER) return undefined;
    if (this.data.header.scoring === 'multiple-choice') {
      const gold = goldChoice(q);
      return gold === undefined || !q.choices
        ? undefined
        : secondChoice(q.question, q.choices, payload.text) === gold
          ? 1
          : 0;
    }
    return q.answers?.length ? secondContainment(q.question, q.answers, payload.text) : undefined;
  }

  async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    const found = this.questions.get(task.taskId);
    if (!found) throw new Error(`unknown question ${task.taskId}`);
    const { world, q } = found;
    const turns = this.turns.get(world.id);
    const evidence = (q.evidence ?? []).map((id) => turns?.get(id)?.t).filter((t) => t !== undefined);
    const scored = await this.scorer.score(q, evidence, payload.text, about(world));
    return {
      reward: scored.reward,
      success: scored.reward >= 0.5,
      metrics: scored.metrics,
      trajectory: {
        ...(scored.answer !== undefined ? { answer: scored.answer } : {}),
        steps: scored.answer !== undefined ? [{ action: 'answer from memory', observation: scored.answer }] : [],
        ...(scored.tokens ? { tokens: scored.tokens } : {}),
      },
      note: scored.note,
    };
  }

  /** A quick examination's sample (history-samples.ts): validation questions of several worlds, late sessions first. */
  async samples(count: number): Promise<{ episodes: EpisodeRecorder[]; tasks: PartialRecorder[] }> {
    const asked = (q: QuestionRecord) => this.train.has(q.id);
    const sample = historySample(
      this.data.worlds.map((w) => ({
        id: w.id,
        sessionTurns: w.sessions.map((x) => x.turns.length),
        questions: w.questions
          .filter(asked)
          .map((q) => ({ id: q.id, scenario: q.scenario ?? 'all', evidenceSessions: this.evidenceSessions(w, q) })),
      })),
      count,
    );
    const all = await this.allEpisodes();
    const byId = new Map(this.data.worlds.map((w) => [w.id, w]));
    const episodes: EpisodeRecorder[] = [];
    const tasks: PartialRecorder[] = [];
    for (const pick of sample.worlds) {
      const world = byId.get(pick.id) as LoadedWorld;
      for (const i of pick.sessions) episodes.push((all.get(world.id) ?? [])[i] as EpisodeRecorder);
      for (const id of pick.questions)
        tasks.push(questionTask(this.data.header.name, world, (this.questions.get(id) as { q: QuestionRecord }).q));
    }
    return { episodes: episodes.filter((e) => e !== undefined), tasks };
  }

  /** The sessions a question's evidence turns are in. */
  private evidenceSessions(world: LoadedWorld, q: QuestionRecord): number[] {
    const turns = this.turns.get(world.id);
    return [
      ...new Set((q.evidence ?? []).map((id) => turns?.get(id)?.session).filter((s): s is number => s !== undefined)),
    ];
  }

  scenario(taskId: string): string {
    const found = this.questions.get(taskId);
    return found ? (found.q.scenario ?? 'all') : 'unknown';
  }

  explain(taskId: string): Explanation | undefined {
    const found = this.questions.get(taskId);
    if (!found) return undefined;
    const { world, q } = found;
    const turns = this.turns.get(world.id);
    const evidence = (q.evidence ?? []).slice(0, EXPLANATION_LIMITS.evidence).map((id): EvidenceRecord => {
      const at = turns?.get(id);
      if (!at) return { id };
      const speaker = at.t.speaker ? { speaker: at.t.speaker } : {};
      return { id, text: at.t.text, session: at.session + 1, time: sessionLabel(world, at.session), ...speaker };
    });
    const gold = goldAnswers(q, this.data.header.scoring);
    const choices = q.choices ? { choices: letteredChoices(q.choices, goldChoice(q)) } : {};
    return withinLimits({ question: q.question, scenario: q.scenario ?? 'all', gold, ...choices, evidence });
  }

  guide(): EnvironmentGuide {
    const rule = this.data.header.scoring;
    const reads = readsAnswer(rule);
    return {
      reward: `${rule}: ${RULES[rule]}`,
      schema: DATA_SCHEMA,
      reader: !reads
        ? 'no agent: the checker scores the payload text itself.'
        : this.scorer.mode === 'offline'
          ? rule === 'multiple-choice'
            ? 'offline, a rule-based reader picks the choice whose words the payload holds most.'
            : 'offline, an extractive reader answers with the payload line closest to the question.'
          : `${this.scorer.id} answers from the payload alone.`,
      agentAnswers: reads,
    };
  }

  describe(): string {
    const h = this.data.header;
    return (
      `${h.description ?? `The dataset "${h.name}": long histories, then questions about them.`} A memory is built per world from its ` +
      'sessions in order (each an episode whose steps are turns "Speaker: text"; meta.turns has turn ids, speakers, texts and image ' +
      `captions; meta.date the session date), then answers the world's questions with a payload of at most ${this.budget.maxChars} ` +
      `characters. Scoring: ${h.scoring} — ${RULES[h.scoring]}`
    );
  }
}

const DATA_SCHEMA =
  'update() gets one episode per session of a world, in time order: taskId "<world>/session-<n>", instruction naming ' +
  'the session and its date, steps = the turns in order (action "Speaker: text", or the text alone without a speaker; a ' +
  'shared image adds observation.text "[Speaker shared an image: caption]" and, when the data has the file, ' +
  'observation.images), outcome always success (no task outcome), meta = { kind: "dialogue", conversation (the world id), ' +
  'session (number), date (ISO), dateText, speakers, turns: [{ id, speaker?, text, caption? }] } — meta.turns[i] is ' +
  "steps[i] without the speaker prefix. ctx.now() during update() is the session's date. retrieve() gets one question: " +
  'taskId, instruction = the question, meta = { conversation, speakers, choices?, date? } (choices for multiple-choice data; ' +
  "date, ISO, when the question says when it is asked). ctx.now() during retrieve() is the question's date when it has one, " +
  "else a day after the world's last session.";

/** What a world's questions are about, for a model's prompt. */
function about(world: LoadedWorld): string {
  const sp = world.speakers ?? [];
  if (sp.length === 2) return `a long conversation between ${sp[0]} and ${sp[1]}`;
  if (sp.length > 2) return `a long conversation among ${sp.slice(0, 10).join(', ')}`;
  return `a long history ("${world.id}")`;
}

const RULES = {
  'evidence-recall': EVIDENCE_RECALL_RULE,
  'answer-containment': '1 when a gold answer appears in the payload (case and white space folded).',
  'multiple-choice': 'the reader picks one of the choices from the payload alone; 1 when it is the gold choice.',
  'exact-match':
    'the reader answers from the payload alone; 1 when the answer equals a gold answer after normalisation.',
  f1: 'the reader answers from the payload alone; token F1 against the best gold answer.',
  'llm-judge': 'the reader answers from the payload alone; a judge model grades the answer against the gold answers.',
} as const;
