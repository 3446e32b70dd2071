// LoCoMo as an environment. A world is one conversation: its dialogue sessions are the update episodes (in
// order, each at its session date) and its questions are the retrieve tasks, split about 1:4 train:test by a
// seeded hash that is stable when conversations are added. Offline, the reward is evidence recall of the
// payload; with an executor model it is LoCoMo's F1 of the model's answer, with evidence recall reported beside.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecorder, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import { repoRoot } from '../../foundation/paths.ts';
import type { PayloadBudget } from '../../sandbox/payload.ts';
import { isTrain, splitReport } from '../split.ts';
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
import { EXPLANATION_LIMITS, withinLimits } from '../../engine/environment/explanation.ts';
import { ExtractiveReader, type LocomoReader, ModelReader } from './agents.ts';
import { EVIDENCE_RECALL_RULE, evidenceRecall } from '../scoring/evidence-recall.ts';
import { locomoScore } from './f1.ts';
import { historySample } from '../history-samples.ts';
import {
  CATEGORY_NAMES,
  type Conversation,
  type LoadResult,
  loadConversations,
  type Question,
  type Session,
} from './load.ts';

/**
 * Without --data: AUTOMEMO_LOCOMO_DIR, else ../shared/data/locomo when present, else the copy bundled here. Read when
 * an environment opens, not when this module loads: a library user may set the variable after importing automemo.
 */
export function defaultLocomoDir(): string {
  return (
    process.env.AUTOMEMO_LOCOMO_DIR ??
    [join(repoRoot, '..', 'shared', 'data', 'locomo'), join(repoRoot, 'envs', 'locomo', 'data')].find((d) =>
      existsSync(d),
    ) ??
    join(repoRoot, 'envs', 'locomo', 'data')
  );
}
export const LOCOMO_BUDGET: PayloadBudget = { maxChars: 4000, maxImages: 2 };

export interface LocomoOptions {
  dataDir?: string;
  seed?: number;
  trainShare?: number;
  models: Pick<ResolvedModels, 'executor'>;
  budget?: PayloadBudget;
}

export function sessionEpisode(conv: Conversation, s: Session): EpisodeRecorder {
  const [a, b] = conv.speakers;
  return {
    taskId: `${conv.id}/session-${s.index}`,
    env: 'locomo',
    domain: 'conversation',
    instruction: `Conversation between ${a} and ${b}, session ${s.index}, ${s.dateText}`,
    initial: { text: `Session ${s.index} of the conversation between ${a} and ${b}, on ${s.dateText}.` },
    steps: s.turns.map((t, i) => ({
      index: i,
      action: `${t.speaker}: ${t.text}`,
      ...(t.caption ? { observation: { text: `[${t.speaker} shared an image: ${t.caption}]` } } : {}),
    })),
    outcome: { reward: 1, success: true, note: 'a dialogue session (no task outcome)' },
    meta: {
      kind: 'dialogue',
      conversation: conv.id,
      session: s.index,
      date: new Date(s.time).toISOString(),
      dateText: s.dateText,
      speakers: [a, b],
      turns: s.turns.map((t) => ({
        id: t.id,
        speaker: t.speaker,
        text: t.text,
        ...(t.caption ? { caption: t.caption } : {}),
      })),
    },
  };
}

const LOCOMO_SCHEMA =
  'update() gets one episode per session of a conversation, in time order: taskId "<conversation>/session-<n>", ' +
  'instruction "Conversation between A and B, session n, <date text>", steps = the turns in order (action "Speaker: text"; ' +
  'a shared image adds observation.text "[Speaker shared an image: caption]"), outcome always success (a dialogue has no ' +
  'outcome), meta = { kind: "dialogue", conversation, session (number), date (ISO), dateText, speakers: [A, B], ' +
  'turns: [{ id: "D<session>:<turn>", speaker, text, caption? }] } — meta.turns[i] is steps[i] without the speaker prefix. ' +
  "ctx.now() during update() is the session's date. retrieve() gets one question: taskId, instruction = the question, " +
  'meta = { conversation, speakers: [A, B] }; no date, no category, no answer.';

export function questionTask(conv: Conversation, q: Question): PartialRecorder {
  return {
    taskId: q.id,
    env: 'locomo',
    domain: 'conversation',
    instruction: q.question,
    initial: {},
    meta: { conversation: conv.id, speakers: [conv.speakers[0], conv.speakers[1]] },
  };
}

export class LocomoEnvironment implements Environment {
  private readonly questions = new Map<string, { conv: Conversation; q: Question }>();
  private readonly reader: LocomoReader;
  private readonly budget: PayloadBudget;
  private readonly seed: number;
  private readonly trainShare: number;

  private constructor(
    readonly data: LoadResult,
    readonly dataDir: string,
    options: LocomoOptions,
  ) {
    for (const conv of data.conversations) for (const q of conv.questions) this.questions.set(q.id, { conv, q });
    this.reader = options.models.executor ? new ModelReader(options.models.executor) : new ExtractiveReader();
    this.budget = options.budget ?? LOCOMO_BUDGET;
    this.seed = options.seed ?? 0;
    this.trainShare = options.trainShare ?? 0.2;
  }

  static load(options: LocomoOptions): LocomoEnvironment {
    const dir = options.dataDir ?? defaultLocomoDir();
    return new LocomoEnvironment(loadConversations(dir), dir, options);
  }

  get offline(): boolean {
    return this.reader instanceof ExtractiveReader;
  }

  info(): EnvironmentInfo {
    const all = [...this.questions.values()].map((x) => x.q);
    return {
      name: 'locomo',
      mode: this.offline ? 'offline' : 'model',
      reward: this.offline ? 'evidence recall of the payload' : `LoCoMo F1 of the answer by ${this.reader.id}`,
      budget: this.budget,
      agentId: this.reader.id,
      deterministic: this.reader.deterministic,
      // Where the files sit is left out (a worker may hold them elsewhere): their names and content hashes say it.
      data: {
        files: this.data.files,
        conversations: this.data.conversations.length,
        questions: all.length,
        split: { seed: this.seed, trainShare: this.trainShare, byCategory: this.splitByCategory() },
        warnings: this.data.warnings,
      },
    };
  }

  private splitCache: ReturnType<typeof splitReport> | undefined;

  /** Train and test counts per category (computed once: the data does not change). */
  private splitByCategory() {
    const all = [...this.questions.values()].map((x) => x.q);
    this.splitCache ??= splitReport(
      all,
      (q) => q.id,
      (q) => CATEGORY_NAMES[q.category] ?? String(q.category),
      {
        seed: this.seed,
        trainShare: this.trainShare,
      },
    );
    return this.splitCache;
  }

  /** Questions the current checker can score: offline, evidence recall needs evidence turns. */
  private scorable(q: Question): boolean {
    return !this.offline || q.evidence.length > 0;
  }

  async worlds(split: Split): Promise<World[]> {
    return this.data.conversations.map((conv) => {
      const tasks = conv.questions
        .filter(
          (q) =>
            this.scorable(q) && isTrain(q.id, { seed: this.seed, trainShare: this.trainShare }) === (split === 'train'),
        )
        .map((q) => questionTask(conv, q));
      const last = conv.sessions[conv.sessions.length - 1] as Session;
      return {
        id: conv.id,
        episodes: conv.sessions.map((s) => sessionEpisode(conv, s)),
        episodeTimes: conv.sessions.map((s) => s.time),
        tasks,
        retrieveTime: last.time + 86_400_000,
      };
    });
  }

  /** With a model answering, evidence recall is the other reader (offline, evidence recall is the reward itself). */
  readers(): string[] {
    return this.offline ? [] : ['evidence-recall'];
  }

  async reread(reader: string, taskId: string, payload: MemoryPayload): Promise<number | undefined> {
    const found = this.questions.get(taskId);
    if (reader !== 'evidence-recall' || !found) return undefined;
    const turns = found.q.evidence.map((id) => found.conv.turns.get(id)).filter((t) => t !== undefined);
    return turns.length ? evidenceRecall(payload.text, turns).recall : undefined;
  }

  async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    const found = this.questions.get(task.taskId);
    if (!found) throw new Error(`unknown LoCoMo task ${task.taskId}`);
    const { conv, q } = found;
    const evidenceTurns = q.evidence.map((id) => conv.turns.get(id)).filter((t) => t !== undefined);
    const recall = evidenceRecall(payload.text, evidenceTurns);
    const reading = await this.reader.answer(q.question, conv.speakers, payload.text);
    const metrics: Record<string, number> = {};
    if (evidenceTurns.length) metrics.evidenceRecall = recall.recall;
    let reward: number;
    if (this.offline) {
      reward = recall.recall;
    } else {
      reward = locomoScore(reading.answer, q.answer, q.category);
      metrics.f1 = reward;
    }
    const trajectory = {
      answer: reading.answer,
      steps: [{ action: 'answer from memory', observation: reading.answer }],
      ...(reading.tokens ? { tokens: reading.tokens } : {}),
    };
    const note = evidenceTurns.length
      ? `evidence ${recall.covered.length}/${evidenceTurns.length} covered${recall.missing.length ? ` (missing ${recall.missing.join(', ')})` : ''}`
      : 'no evidence turns';
    return { reward, success: reward >= 0.5, metrics, trajectory, note };
  }

  /** A quick examination's sample (history-samples.ts): validation questions of several conversations, late sessions first. */
  async samples(count: number): Promise<{ episodes: EpisodeRecorder[]; tasks: PartialRecorder[] }> {
    const asked = (q: Question) => this.scorable(q) && isTrain(q.id, { seed: this.seed, trainShare: this.trainShare });
    const sessionOf = (conv: Conversation, id: string) =>
      conv.sessions.findIndex((s) => s.index === conv.turns.get(id)?.session);
    const sample = historySample(
      this.data.conversations.map((c) => ({
        id: c.id,
        sessionTurns: c.sessions.map((s) => s.turns.length),
        questions: c.questions
          .filter(asked)
          .map((q) => ({
            id: q.id,
            scenario: CATEGORY_NAMES[q.category] ?? String(q.category),
            evidenceSessions: [...new Set(q.evidence.map((e) => sessionOf(c, e)).filter((i) => i >= 0))],
          })),
      })),
      count,
    );
    const byId = new Map(this.data.conversations.map((c) => [c.id, c]));
    const episodes: EpisodeRecorder[] = [];
    const tasks: PartialRecorder[] = [];
    for (const pick of sample.worlds) {
      const conv = byId.get(pick.id) as Conversation;
      for (const i of pick.sessions) episodes.push(sessionEpisode(conv, conv.sessions[i] as Session));
      for (const id of pick.questions) tasks.push(questionTask(conv, (this.questions.get(id) as { q: Question }).q));
    }
    return { episodes, tasks };
  }

  scenario(taskId: string): string {
    const found = this.questions.get(taskId);
    return found ? (CATEGORY_NAMES[found.q.category] ?? `category-${found.q.category}`) : 'unknown';
  }

  explain(taskId: string): Explanation | undefined {
    const found = this.questions.get(taskId);
    if (!found) return undefined;
    const { conv, q } = found;
    const evidence = q.evidence.slice(0, EXPLANATION_LIMITS.evidence).map((id): EvidenceRecord => {
      const t = conv.turns.get(id);
      if (!t) return { id };
      const time = conv.sessions.find((s) => s.index === t.session)?.dateText;
      return { id, text: t.text, session: t.session, ...(time ? { time } : {}), speaker: t.speaker };
    });
    return withinLimits({ question: q.question, scenario: this.scenario(taskId), gold: [String(q.answer)], evidence });
  }

  describe(): string {
    return (
      'LoCoMo: very long conversations between two people over many sessions (dates given). A memory is built per ' +
      'conversation from its sessions (each an episode whose steps are turns "Speaker: text"; meta.turns has turn ids, ' +
      'speakers, texts and image captions; meta.date the session date). Then it answers questions about the ' +
      `conversation (single-hop, multi-hop, temporal, open-domain, adversarial) with a payload of at most ${this.budget.maxChars} ` +
      'characters. The score is how many of the turns that answer each question appear in the payload.'
    );
  }

  guide(): EnvironmentGuide {
    return {
      reward: this.offline
        ? `evidence recall: ${EVIDENCE_RECALL_RULE}`
        : `LoCoMo's F1 of the answer ${this.reader.id} reads off the payload against the gold answer (per category as in LoCoMo); evidence recall (${EVIDENCE_RECALL_RULE}) is reported beside it.`,
      schema: LOCOMO_SCHEMA,
      reader: this.offline
        ? 'no agent: the checker scores the payload text itself against the evidence turns (images are not scored). The "answer" in the evidence is only a line an extractive reader copied from the payload.'
        : `${this.reader.id} answers the question from the payload text alone, in a short phrase.`,
      agentAnswers: !this.offline,
    };
  }

  /** Ground truth of a question, for reports and the meta agent's evidence — never for programs. */
  question(taskId: string): Question | undefined {
    return this.questions.get(taskId)?.q;
  }
}
