// What a reader of a run should know first, before any node is opened: the program picked (a "winner" only once the
// run finished, "leading" before) with its test score beside the best starting program's, how the children did
// against their parents, and every idea tried more than once from one parent (eight tails on one crossover are one
// idea tried eight times) with the range its tries scored against the parent's mean.
import type { NodeView, RunStatus } from './node-view.ts';

export interface DigestProgram {
  id: string;
  kind: NodeView['kind'];
  /** Validation mean. */
  q: number | null;
  n: number;
  test?: number;
  /** A seed's design, a child's change. */
  what?: string;
}

export interface RepeatedIdea {
  parent: string;
  parentQ: number | null;
  /** The idea in words (engine/meta/edit-label.ts's group label). */
  label: string;
  nodes: string[];
  /** The tries' validation means: lowest and highest. */
  lo: number | null;
  hi: number | null;
  /** Tries whose mean is above the parent's. */
  better: number;
}

export interface RunDigest {
  /** "winner" once the run finished; "leading" while it runs or after it stopped. */
  pickWord: 'winner' | 'leading';
  pick?: DigestProgram;
  /** The best starting program (the root and the seeds) by validation mean: what the search had to beat. */
  baseline?: DigestProgram;
  /** The starting program with the best test score, when that is another one. */
  baselineOnTest?: DigestProgram;
  children: { written: number; evaluated: number; better: number; worse: number; best?: DigestProgram };
  repeated: RepeatedIdea[];
  /** Every program scored on the held-out test split, best first. */
  tested: DigestProgram[];
  /** All of it in sentences (digestLines), for the page's summary and the text report. */
  lines: string[];
}

const program = (n: NodeView): DigestProgram => ({
  id: n.id,
  kind: n.kind,
  q: n.q,
  n: n.n,
  ...(n.testScore !== undefined ? { test: n.testScore } : {}),
  ...(n.kind === 'seed' && n.design
    ? { what: n.design }
    : n.edit
      ? { what: n.edit.label }
      : n.kind === 'root'
        ? { what: 'no memory' }
        : {}),
});

const byMean = (a: NodeView, b: NodeView) => (b.q ?? -Infinity) - (a.q ?? -Infinity);

export function digest(nodes: NodeView[], winner: string | null, status: RunStatus): RunDigest {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pick = winner ? byId.get(winner) : undefined;
  const starts = nodes.filter((n) => n.kind !== 'child' && n.q !== null).sort(byMean);
  const baseline = starts[0];
  const tested = starts
    .filter((n) => n.testScore !== undefined)
    .sort((a, b) => (b.testScore as number) - (a.testScore as number))[0];
  const children = nodes.filter((n) => n.kind === 'child');
  const evaluated = children.filter((n) => n.q !== null);
  const parentQ = (n: NodeView) => (n.parent ? (byId.get(n.parent)?.q ?? null) : null);
  const better = evaluated.filter(
    (n) => parentQ(n) !== null && (n.q as number) > (parentQ(n) as number) + 1e-12,
  ).length;
  const worse = evaluated.filter((n) => parentQ(n) !== null && (n.q as number) < (parentQ(n) as number) - 1e-12).length;
  const bestChild = [...evaluated].sort(byMean)[0];
  const d: Omit<RunDigest, 'lines'> = {
    pickWord: status === 'finished' ? 'winner' : 'leading',
    ...(pick ? { pick: program(pick) } : {}),
    ...(baseline ? { baseline: program(baseline) } : {}),
    ...(tested && tested !== baseline ? { baselineOnTest: program(tested) } : {}),
    children: {
      written: children.length,
      evaluated: evaluated.length,
      better,
      worse,
      ...(bestChild ? { best: program(bestChild) } : {}),
    },
    repeated: repeatedIdeas(children, byId),
    tested: nodes
      .filter((n) => n.testScore !== undefined)
      .sort((a, b) => (b.testScore as number) - (a.testScore as number))
      .map(program),
  };
  return { ...d, lines: digestLines(d) };
}

/** Groups of two or more siblings that tried one idea, the largest first. */
export function repeatedIdeas(children: NodeView[], byId: Map<string, NodeView>): RepeatedIdea[] {
  const groups = new Map<string, NodeView[]>();
  for (const c of children) {
    if (!c.edit || !c.parent) continue;
    const key = `${c.parent}\u0000${c.edit.group}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out: RepeatedIdea[] = [];
  for (const tries of groups.values()) {
    if (tries.length < 2) continue;
    const first = tries[0] as NodeView;
    const parent = byId.get(first.parent as string);
    const qs = tries.map((t) => t.q).filter((q): q is number => q !== null);
    const pq = parent?.q ?? null;
    out.push({
      parent: first.parent as string,
      parentQ: pq,
      label: (first.edit as NonNullable<NodeView['edit']>).groupLabel,
      nodes: tries.map((t) => t.id),
      lo: qs.length ? Math.min(...qs) : null,
      hi: qs.length ? Math.max(...qs) : null,
      better: pq === null ? 0 : qs.filter((q) => q > pq + 1e-12).length,
    });
  }
  return out.sort((a, b) => b.nodes.length - a.nodes.length);
}

const f = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));
/** A seed given as a path is named by its file. */
const shortDesign = (what: string) => what.split('/').pop()?.replace(/\.ts$/, '') ?? what;
const name = (p: DigestProgram) => {
  const what = p.what && p.kind !== 'child' ? shortDesign(p.what) : '';
  return `${p.id}${what && !p.id.endsWith(what) ? ` (${what})` : ''}`;
};
const scored = (p: DigestProgram) => `validation ${f(p.q)}, test ${p.test === undefined ? 'not run' : f(p.test)}`;

/** The digest in sentences, for the page's summary and the text report. */
export function digestLines(d: Omit<RunDigest, 'lines'>): string[] {
  const lines: string[] = [];
  if (d.pick) {
    const against =
      d.baseline && d.baseline.id !== d.pick.id
        ? `; the best starting program ${name(d.baseline)}: ${scored(d.baseline)}`
        : d.pick.kind !== 'child'
          ? ' — a starting program: no child was picked over it'
          : '';
    const onTest =
      d.baselineOnTest && d.baselineOnTest.id !== d.pick.id
        ? `; best starting program on test ${name(d.baselineOnTest)}: test ${f(d.baselineOnTest.test)}`
        : '';
    lines.push(
      `${d.pickWord === 'winner' ? 'Winner' : 'Leading'} ${name(d.pick)}: ${scored(d.pick)}${against}${onTest}.`,
    );
  }
  if (d.tested.length > 1)
    lines.push(`On the held-out test split: ${d.tested.map((p) => `${name(p)} ${f(p.test)}`).join(', ')}.`);
  const c = d.children;
  if (c.written) {
    const all = c.evaluated > 0 && c.worse === c.evaluated ? ' — every child scored below its parent' : '';
    lines.push(
      `Children: ${c.written} written, ${c.evaluated} evaluated; ${c.better} above their parent, ${c.worse} below${all}${c.best ? `; the best child ${c.best.id} ${f(c.best.q)}` : ''}.`,
    );
  }
  for (const r of d.repeated.slice(0, 3)) {
    const range = r.lo === null ? 'not scored yet' : r.lo === r.hi ? f(r.lo) : `${f(r.lo)}–${f(r.hi)}`;
    const verdict =
      r.better === 0 ? 'none above it' : r.better === r.nodes.length ? 'all above it' : `${r.better} above it`;
    lines.push(
      `One idea tried ${r.nodes.length} times from ${r.parent}: ${r.label} (${r.nodes.join(', ')}): ${range} against the parent's ${f(r.parentQ)}, ${verdict}.`,
    );
  }
  return lines;
}
