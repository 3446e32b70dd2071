// What the meta agent is told of the tree beyond its parent: the children already tried from that parent (so a
// second child does not repeat the first; their edits typed, their descriptions in whole sentences), the best programs elsewhere
// (inspirations, as AlphaEvolve and OpenEvolve show them; the parent's own children are not "elsewhere"), and, once
// per search, what the memory is built from (update episodes per scenario) and which roles run.
import type { EpisodeRecorder } from '../../memo-programs/contract.ts';
import type { Environment } from '../environment/contract.ts';
import { describeModel, type ResolvedModels } from '../../foundation/llm/models.ts';
import { wholeSentences } from '../meta/sentences.ts';
import { childFailure, type EpisodeField, type Inspiration, type ProgramFiles, type TriedChild } from '../meta/types.ts';
import type { SearchTree } from './tree.ts';

const MAX_TRIED = 12;
const MAX_INSPIRATIONS = 3;
const CHANGE_CHARS = 400;

const clip = wholeSentences;

/**
 * Children of the parent, oldest first: valid ones with their paired score delta (and their program, read by `read`
 * from the node's folder, for a prompt to show as edits), failed ones with the check that stopped them, no-ops as
 * failures of their own kind; each with its edits (what agents decide from) and description.
 */
export function triedFrom(tree: SearchTree, parentId: string, read: (dir: string) => ProgramFiles | undefined = () => undefined): TriedChild[] {
  const parent = tree.get(parentId);
  const out: { step: number; child: TriedChild }[] = [];
  const described = (text: string | undefined) => (text ? { description: clip(text, CHANGE_CHARS) } : {});
  for (const n of tree.nodes.values()) {
    if (n.parent !== parentId || n.kind !== 'child') continue;
    const paired = n.scores[0] !== undefined && parent.scores[0] !== undefined ? (n.scores[0] as number) - (parent.scores[0] as number) : undefined;
    const files = read(n.dir);
    out.push({
      step: n.step,
      child: {
        node: n.id,
        step: n.step,
        edits: n.edits ?? [],
        ...described(n.description),
        ...(paired !== undefined ? { delta: paired } : {}),
        ...(files ? { files } : {}),
      },
    });
  }
  for (const f of tree.failed) {
    if (f.parent !== parentId) continue;
    out.push({
      step: f.step,
      child: {
        node: `step ${f.step}`,
        step: f.step,
        edits: [],
        failure: { check: f.failure.check, detail: clip(f.failure.detail, CHANGE_CHARS) },
      },
    });
  }
  for (const x of tree.noops) {
    if (x.parent !== parentId) continue;
    out.push({
      step: x.step,
      child: {
        node: `step ${x.step}`,
        step: x.step,
        edits: x.edits ?? [],
        ...described(x.description),
        failure: childFailure('no-op', x.reason),
      },
    });
  }
  return out
    .sort((a, b) => a.step - b.step)
    .slice(-MAX_TRIED)
    .map((x) => x.child);
}

/**
 * The best evaluated programs other than the parent and its children (those are in what was tried from it, with
 * their scores against it), by mean validation score.
 */
export function inspirationsFor(tree: SearchTree, parentId: string): Inspiration[] {
  return tree
    .evaluated()
    .filter((n) => n.id !== parentId && n.parent !== parentId && n.kind !== 'root')
    .map((n) => ({
      node: n.id,
      q: tree.q(n),
      evaluations: n.scores.length,
      edits: n.edits ?? [],
      description: clip(n.description ?? (n.kind === 'seed' ? 'a seed program' : '(no description)'), CHANGE_CHARS),
    }))
    .sort((a, b) => b.q - a.q || a.node.localeCompare(b.node))
    .slice(0, MAX_INSPIRATIONS);
}

/** Which roles answer with a model and which run offline, in one line. */
export function rolesLine(models: ResolvedModels): string {
  const line = (role: keyof ResolvedModels, what: string) => `${what}: ${models[role] ? `online (${describeModel(models[role])})` : 'offline'}`;
  return [
    line('meta', 'meta (you)'),
    line('executor', 'executor (the agent that uses the payload)'),
    line('memo', "memo (ctx.llm.chat inside programs; offline it is an extractive fallback that says offline: true)"),
    line('embedding', 'embedding (ctx.embed; offline a local 512-d sentence encoder, which works)'),
  ].join('; ');
}

export interface MemoryMaterial {
  example?: EpisodeRecorder;
  counts: { scenario: string; success: number; failure: number; notes: number }[];
  fields?: EpisodeField[];
}

/** Episodes, meta fields and values looked at: what the material costs stays bounded whatever the benchmark. */
const MAX_EPISODES = 20_000;
const MAX_FIELDS = 20;
const MAX_VALUE_CHARS = 100;
const MAX_VALUES = 200;

/**
 * One real update episode (the first non-empty one); per scenario, the update episodes' outcomes and how many carry
 * a note; and the meta fields that name something, summarised (EpisodeField).
 */
export async function memoryMaterial(env: Environment): Promise<MemoryMaterial> {
  const worlds = await env.worlds('train');
  const episodes = worlds.flatMap((w) => w.episodes);
  const example = episodes.find((e) => e.steps.length > 0) ?? episodes[0];
  const tally = new Map<string, { success: number; failure: number; notes: number }>();
  for (const e of episodes.slice(0, MAX_EPISODES)) {
    // Dialogue sessions have no outcome to learn from: they are not counted as successes.
    if (e.meta.kind === 'dialogue') continue;
    const scenario = env.scenario(e.taskId);
    const t = tally.get(scenario) ?? { success: 0, failure: 0, notes: 0 };
    if (e.outcome.success) t.success++;
    else t.failure++;
    if (typeof e.outcome.note === 'string' && e.outcome.note.trim()) t.notes++;
    tally.set(scenario, t);
  }
  const counts = [...tally].map(([scenario, t]) => ({ scenario, ...t })).sort((a, b) => a.scenario.localeCompare(b.scenario));
  const fields = episodeFields(worlds.map((w) => w.episodes));
  return { ...(example ? { example } : {}), counts, ...(fields.length ? { fields } : {}) };
}

/** The meta fields with short text values, per world: how many values, how many episodes share one, named or not. */
export function episodeFields(worlds: EpisodeRecorder[][]): EpisodeField[] {
  const seen = new Map<string, { episodes: number; named: number; perWorld: number[]; values: Set<string> }>();
  let looked = 0;
  for (const episodes of worlds) {
    const inWorld = new Map<string, Set<string>>();
    for (const e of episodes) {
      if (looked++ >= MAX_EPISODES) break;
      for (const [field, value] of Object.entries(e.meta ?? {}).slice(0, 50)) {
        if (typeof value !== 'string' || !value.trim() || value.length > MAX_VALUE_CHARS || field === 'kind') continue;
        let f = seen.get(field);
        if (!f) {
          if (seen.size >= MAX_FIELDS) continue;
          seen.set(field, (f = { episodes: 0, named: 0, perWorld: [], values: new Set() }));
        }
        f.episodes++;
        if (e.instruction.slice(0, 5000).toLowerCase().includes(value.toLowerCase())) f.named++;
        if (f.values.size < 5000) f.values.add(value);
        const w = inWorld.get(field) ?? new Set<string>();
        w.add(value);
        inWorld.set(field, w);
      }
    }
    for (const [field, values] of inWorld) seen.get(field)?.perWorld.push(values.size);
  }
  return [...seen]
    .filter(([, f]) => f.episodes >= 2)
    .map(([field, f]) => ({
      field,
      episodes: f.episodes,
      perWorld: f.perWorld.reduce((a, b) => a + b, 0) / Math.max(1, f.perWorld.length),
      perValue: f.episodes / Math.max(1, f.values.size),
      named: f.named / f.episodes,
      values: [...f.values].slice(0, MAX_VALUES),
    }))
    .sort((a, b) => a.field.localeCompare(b.field));
}
