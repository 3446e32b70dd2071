// What programs see of a dataset: each session an update episode whose steps are its turns ("Speaker: text"), with
// the turns and their ids in meta (the same shape LoCoMo's sessions have, so programs read both alike), and each
// question a retrieve task. Answers, evidence and the correct choice stay in the environment.
import type { EpisodeRecorder, ImageRef, PartialRecorder } from '../../memo-programs/contract.ts';
import type { QuestionRecord } from './format.ts';
import type { LoadedWorld } from './load.ts';

type Session = LoadedWorld['sessions'][number];

const pair = (w: LoadedWorld) => (w.speakers?.length === 2 ? (w.speakers as [string, string]) : undefined);

export function sessionLabel(world: LoadedWorld, index: number): string {
  return world.sessions[index]?.label ?? new Date(world.times[index] as number).toISOString();
}

/** One session as an update episode; `images` holds the refs of turn images already in the host's store, by turn id. */
export function sessionEpisode(
  env: string,
  world: LoadedWorld,
  index: number,
  images: Map<string, ImageRef> = new Map(),
): EpisodeRecorder {
  const s = world.sessions[index] as Session;
  const n = index + 1;
  const label = sessionLabel(world, index);
  const two = pair(world);
  return {
    taskId: `${world.id}/session-${n}`,
    env,
    domain: 'conversation',
    instruction: two
      ? `Conversation between ${two[0]} and ${two[1]}, session ${n}, ${label}`
      : `${world.id}, session ${n}, ${label}`,
    initial: {
      text: two
        ? `Session ${n} of the conversation between ${two[0]} and ${two[1]}, on ${label}.`
        : `Session ${n} of ${world.id}, on ${label}.`,
    },
    steps: s.turns.map((t, i) => {
      const caption = t.caption ?? t.image?.caption;
      const image = images.get(t.id);
      const text = caption ? `[${t.speaker ?? 'someone'} shared an image: ${caption}]` : undefined;
      return {
        index: i,
        action: t.speaker ? `${t.speaker}: ${t.text}` : t.text,
        ...(text || image ? { observation: { ...(text ? { text } : {}), ...(image ? { images: [image] } : {}) } } : {}),
      };
    }),
    outcome: { reward: 1, success: true, note: 'a dialogue session (no task outcome)' },
    meta: {
      kind: 'dialogue',
      conversation: world.id,
      session: n,
      date: new Date(world.times[index] as number).toISOString(),
      dateText: label,
      speakers: world.speakers ?? [],
      turns: s.turns.map((t) => ({
        id: t.id,
        ...(t.speaker !== undefined ? { speaker: t.speaker } : {}),
        text: t.text,
        ...((t.caption ?? t.image?.caption) ? { caption: (t.caption ?? t.image?.caption) as string } : {}),
      })),
    },
  };
}

export function questionTask(env: string, world: LoadedWorld, q: QuestionRecord): PartialRecorder {
  return {
    taskId: q.id,
    env,
    domain: 'conversation',
    instruction: q.question,
    initial: {},
    meta: {
      conversation: world.id,
      speakers: world.speakers ?? [],
      ...(q.choices ? { choices: q.choices } : {}),
      ...(world.asked.has(q.id) ? { date: new Date(world.asked.get(q.id) as number).toISOString() } : {}),
    },
  };
}
