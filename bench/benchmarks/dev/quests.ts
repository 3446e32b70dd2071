// A development benchmark with worlds (for tuning the offline agent; bench:search never measures it): dungeons where
// each kind of item is always kept in the same room, a different room in each dungeon. The agent searches rooms in a
// fixed order until it finds the item (reward 1 / rooms searched); a memory that shows where the same kind of item was
// found in this dungeon sends it there first. Items of a kind differ in their material ("silver key", "iron key"),
// which is noise; kinds share words with other kinds' rooms ("key" vs "keyring"), which misleads a loose match.
import { type AgentRun, defineEnvironment, type EnvTask, type MemoryPayload } from 'automemo';
import { rng } from '../random.ts';

const ROOMS = ['armory', 'crypt', 'library', 'kitchen', 'chapel', 'vault'];
const KINDS = ['key', 'keyring', 'map', 'lantern', 'scroll', 'amulet'];
const MATERIALS = ['silver', 'iron', 'bronze', 'golden', 'bone', 'glass'];
const DUNGEONS = ['north', 'south', 'east', 'west', 'deep'];

interface Truth {
  room: string;
  kind: string;
}

function tasks(seed: number, perWorld: number): EnvTask<Truth>[] {
  const r = rng(seed);
  const out: EnvTask<Truth>[] = [];
  for (const dungeon of DUNGEONS) {
    const rooms = r.shuffle(ROOMS);
    const roomOf = new Map(KINDS.map((k, i) => [k, rooms[i % rooms.length] as string]));
    for (let i = 0; i < perWorld; i++) {
      const kind = KINDS[i % KINDS.length] as string;
      out.push({
        id: `${dungeon}-${i}`,
        world: dungeon,
        scenario: kind,
        instruction: `Find the ${r.pick(MATERIALS)} ${kind} in the ${dungeon} dungeon.`,
        truth: { room: roomOf.get(kind) as string, kind },
      });
    }
  }
  return out;
}

/** The room a payload says this kind of item was found in: a line "search <room> -> found the <material> <kind>". */
function remembered(memory: MemoryPayload, kind: string): string | undefined {
  for (const m of memory.text.matchAll(/search (\w+) -> found the \w+ (\w+)/g)) if (m[2] === kind) return m[1];
  return undefined;
}

export default defineEnvironment({
  name: 'quests',
  summary: 'items kept in fixed rooms per dungeon (a development benchmark with worlds)',
  load(ctx) {
    return {
      tasks: tasks(500 + ctx.seed, 24),
      description:
        'Each task asks the agent to find an item in a dungeon. In each dungeon every kind of item is kept in one room. The agent searches rooms one by one ("search <room>", answered "empty" or "found the <item>") in a fixed order unless its memory shows where this kind of item was found.',
      reward: '1 / rooms searched',
      budget: { maxChars: 600, maxImages: 0 },
      agent: {
        id: 'quest-agent/1',
        mode: 'offline',
        deterministic: true,
        async run(task: EnvTask<Truth>, memory: MemoryPayload): Promise<AgentRun> {
          const truth = task.truth as Truth;
          const item = task.instruction.replace(/^Find the (.*) in the .*$/, '$1');
          const first = remembered(memory, truth.kind);
          const order = first ? [first, ...ROOMS.filter((x) => x !== first)] : ROOMS;
          const steps: AgentRun['steps'] = [];
          for (const room of order) {
            const found = room === truth.room;
            steps.push({ action: `search ${room}`, result: found ? `found the ${item}` : 'empty' });
            if (found) return { answer: room, steps };
          }
          return { steps };
        },
      },
      check: (task: EnvTask<Truth>, run: AgentRun) =>
        run.answer === (task.truth as Truth).room ? 1 / run.steps.length : 0,
      explain: (task: EnvTask<Truth>) => ({
        gold: [(task.truth as Truth).room],
        notes: [`${(task.truth as Truth).kind}s here are in this room`],
      }),
    };
  },
});
