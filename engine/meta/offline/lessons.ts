// What the tree has taught about edits, read from its typed history (every evaluated child's edits and paired delta
// against its parent, and the children that changed nothing) and the parent's tried children — nothing the journal
// lacks, so a resumed search learns the same. Three lessons:
// - tried: an edit already written from this parent is never written again (whatever became of it);
// - lost: an edit that made a child worse is not offered again to that parent, to the parent's other descendants,
//   nor to the parent's siblings and their descendants (programs one edit away from it or from a program on their
//   way), where it would most likely lose again; one that made two programs worse is offered nowhere again; and an
//   edit made only of changes that were part of such a loss (one stage of a pair that lost together) is kept away
//   where the loss is, as the pair is: each of its changes was measured there and none was shown to help;
// - helped: an edit that made a child better anywhere is a candidate to extend (extend.ts).
// Edits are compared by what they set (kind, key, value), not by where from: the same setting reached from another
// value, or after a crossover into the design's exact form (a marker edit), is the same change of the program.
import type { Edit, EditOutcome, OfflineParent } from '../types.ts';

/** Below this a paired delta is a loss, above its negation a gain; between, the child changed nothing measurable. */
export const DELTA_EPSILON = 1e-9;

/** Edits that only say where the change started (the design crossed into its exact form), not what it changed. */
const MARKERS: ReadonlySet<Edit['kind']> = new Set(['design-into-pipeline']);

/** The edits that change the program: markers left out. */
export function changes(edits: readonly Edit[]): Edit[] {
  return edits.filter((e) => !MARKERS.has(e.kind));
}

/** What an edit list sets, as a Map key (never read back): each change's kind, key and value. */
export function identity(edits: readonly Edit[]): string {
  return JSON.stringify(changes(edits).map((e) => [e.kind, e.key, e.to]));
}

export interface Helped {
  edits: Edit[];
  delta: number;
  /** The child it made, and the parent it was made from. */
  node: string;
  parent: string;
}

export interface Lessons {
  /** Identities of the edits written from this parent. */
  tried: Set<string>;
  /** Identities that lost where they would likely lose here, with the worst loss. */
  lost: Map<string, number>;
  /** Identities of the single changes that were part of those losses. */
  lostParts: Set<string>;
  /** Edits that helped anywhere in the tree, best first. */
  helped: Helped[];
  /** The parent's own way from its seed: each written ancestor (the parent last) with its edits and paired delta. */
  lineage: Helped[];
  /** The parent's parent when the parent is a written child (its siblings share it). */
  parentOf: Map<string, string>;
}

/** Whether an edit list was written from this parent, or lost where it would lose here. */
export function ruledOut(lessons: Lessons, edits: readonly Edit[]): boolean {
  const id = identity(edits);
  if (lessons.tried.has(id) || lessons.lost.has(id)) return true;
  const parts = changes(edits);
  return parts.length > 0 && parts.every((e) => lessons.lostParts.has(identity([e])));
}

export function lessonsFor(ctx: Pick<OfflineParent, 'node' | 'history' | 'tried'>): Lessons {
  const history: EditOutcome[] = ctx.history ?? [];
  // Written children only (seeds have no edits): their parent, to walk a node's ancestry and find its siblings.
  const parentOf = new Map<string, string>();
  for (const h of history) if (!h.node.startsWith('step ')) parentOf.set(h.node, h.parent);
  const ancestors = new Set<string>();
  for (let n = parentOf.get(ctx.node); n !== undefined && !ancestors.has(n); n = parentOf.get(n)) ancestors.add(n);
  /**
   * Would an edit that lost from `p` likely lose from this parent: p is it, an ancestor, or a sibling of it or of an
   * ancestor (one edit away from a program on its way from its seed).
   */
  const near = (p: string) => {
    if (p === ctx.node || ancestors.has(p)) return true;
    const up = parentOf.get(p);
    return up !== undefined && (up === parentOf.get(ctx.node) || ancestors.has(up));
  };
  const tried = new Set<string>();
  for (const t of ctx.tried ?? []) if (t.edits.length) tried.add(identity(t.edits));
  const lost = new Map<string, number>();
  const lostParts = new Set<string>();
  const helped: Helped[] = [];
  // An edit that made two programs worse, wherever they are, is not offered anywhere again.
  const losses = new Map<string, number>();
  for (const h of history) if (changes(h.edits).length && h.delta < -DELTA_EPSILON) losses.set(identity(h.edits), (losses.get(identity(h.edits)) ?? 0) + 1);
  for (const h of history) {
    if (!changes(h.edits).length) continue;
    const id = identity(h.edits);
    if (h.parent === ctx.node) tried.add(id);
    if (h.delta < -DELTA_EPSILON && (near(h.parent) || (losses.get(id) ?? 0) >= 2)) {
      lost.set(id, Math.min(lost.get(id) ?? 0, h.delta));
      for (const e of changes(h.edits)) lostParts.add(identity([e]));
    }
    if (h.delta > DELTA_EPSILON && !h.node.startsWith('step ')) helped.push({ edits: h.edits, delta: h.delta, node: h.node, parent: h.parent });
  }
  helped.sort((a, b) => b.delta - a.delta || a.node.localeCompare(b.node));
  const byNode = new Map(history.filter((h) => !h.node.startsWith('step ')).map((h) => [h.node, h]));
  const lineage: Helped[] = [];
  for (let n: string | undefined = ctx.node, guard = 0; n !== undefined && guard < 1000; n = parentOf.get(n), guard++) {
    const h = byNode.get(n);
    if (!h) break;
    lineage.unshift({ edits: h.edits, delta: h.delta, node: h.node, parent: h.parent });
  }
  return { tried, lost, lostParts, helped, lineage, parentOf };
}
