// The knowledge graph (graphology). Entities come from the memo model (one JSON extraction per batch of units)
// or, offline, from capitalised phrases and all-caps words; units mentioning several entities link them with
// `related_to`. Resolution: exact lower-cased name or alias (released); optionally Jaro-Winkler merging above a
// threshold (paper). Retrieval: seed entities from the query, a bounded BFS of `maxHops`, neighbours sorted by
// hop (or decayed by distance), and — unlike the released code, where graph output is dropped — the units
// behind the reached entities are returned to be merged into the results.
import { jaroWinkler } from 'automemo/lib/jaro-winkler';
import Graph from 'graphology';
import type { OmniConfig } from './config.ts';

export interface Extracted {
  entities: { name: string; type: string }[];
  relations: { subject: string; predicate: string; object: string }[];
}

const NOT_NAMES = new Set(
  "I Im I'm Ive The A An And But So Oh Wow Yeah Yes No Hey Hi Thanks Thank Sure Well Also It Its That This These Those What When Where Why How Who Which We You They He She My Our Your Their His Her Me Us Them Just Really Great Good Nice Cool Awesome Haha Lol Okay OK Ok Definitely Absolutely Totally Maybe Sounds Glad Hope Let Lets Did Do Does Was Were Is Are Have Has Had Can Could Would Should Will Not In On At For From With About After Before During Since Until If Then There Here Any Some All Every Each Mon Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(
    ' ',
  ),
);

/** Offline entity extraction: capitalised phrases (not sentence-opening function words) and acronyms. */
export function offlineEntities(text: string, speaker?: string): Extracted {
  const names = new Map<string, string>();
  if (speaker) names.set(speaker.toLowerCase(), speaker);
  for (const m of text.matchAll(/\b([A-Z][a-z'’]+(?:\s+(?:of|the|de|von)?\s*[A-Z][a-z'’]+)*|[A-Z]{2,}[a-z]?\+?)\b/g)) {
    const name = (m[1] as string).replace(/['’]s$/, '');
    if (NOT_NAMES.has(name) || name.length < 2) continue;
    names.set(name.toLowerCase(), name);
  }
  const entities = [...names.values()].map((name) => ({ name, type: name === speaker ? 'PERSON' : 'CONCEPT' }));
  const relations: Extracted['relations'] = [];
  for (let i = 0; i < entities.length; i++) {
    for (let j = i + 1; j < entities.length; j++) {
      relations.push({
        subject: (entities[i] as { name: string }).name,
        predicate: 'related_to',
        object: (entities[j] as { name: string }).name,
      });
    }
  }
  return { entities, relations };
}

/** The n highest-scoring labels among `touched`, best first (ties: lower label first). */
function topLabels(score: Float64Array, touched: number[], n: number): number[] {
  const top: number[] = [];
  const better = (a: number, b: number) =>
    (score[a] as number) > (score[b] as number) || (score[a] === score[b] && a < b);
  for (const u of touched) {
    if (top.length === n && !better(u, top[n - 1] as number)) continue;
    let i = Math.min(top.length, n - 1);
    if (top.length < n) top.push(u);
    else top[i] = u;
    while (i > 0 && better(top[i] as number, top[i - 1] as number)) {
      const t = top[i - 1] as number;
      top[i - 1] = top[i] as number;
      top[i] = t;
      i--;
    }
  }
  return top;
}

export class KnowledgeGraph {
  readonly graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  private readonly aliases = new Map<string, string>();

  constructor(private readonly cfg: () => OmniConfig) {}

  private resolve(name: string): string | undefined {
    const key = name.toLowerCase().trim();
    const direct = this.aliases.get(key);
    if (direct) return direct;
    const threshold = this.cfg().graph.mergeThreshold;
    if (threshold === null) return undefined;
    let best: string | undefined;
    let bestSim = threshold;
    for (const [alias, node] of this.aliases) {
      const sim = jaroWinkler(alias, key);
      if (sim >= bestSim) {
        best = node;
        bestSim = sim;
      }
    }
    if (best) this.aliases.set(key, best);
    return best;
  }

  addEntity(name: string, type: string, unit: number): string {
    const key = name.toLowerCase().trim();
    let node = this.resolve(name);
    if (!node) {
      node = `e:${key}`;
      this.aliases.set(key, node);
      this.graph.mergeNode(node, { name, type, units: [] as number[], mentions: 0 });
    }
    const units = this.graph.getNodeAttribute(node, 'units') as number[];
    if (units[units.length - 1] !== unit) units.push(unit);
    this.graph.updateNodeAttribute(node, 'mentions', (n: number) => n + 1);
    return node;
  }

  /** Units added so far (for entity rarity), and the largest label seen. */
  private unitCount = 0;
  private maxLabel = 0;

  /** Records a unit's entities and relations; `unit` is the unit's integer label. */
  add(extracted: Extracted, unit: number): void {
    this.unitCount++;
    if (unit > this.maxLabel) this.maxLabel = unit;
    const nodes = new Map<string, string>();
    for (const e of extracted.entities) nodes.set(e.name.toLowerCase(), this.addEntity(e.name, e.type, unit));
    for (const r of extracted.relations) {
      const a = nodes.get(r.subject.toLowerCase()) ?? this.resolve(r.subject);
      const b = nodes.get(r.object.toLowerCase()) ?? this.resolve(r.object);
      if (!a || !b || a === b) continue; // kept only when both ends resolve
      if (this.graph.hasEdge(a, b)) this.graph.updateEdgeAttribute(a, b, 'mentions', (n: number) => n + 1);
      else this.graph.addEdge(a, b, { predicate: r.predicate, mentions: 1 });
    }
  }

  /** The `limit` best units (labels) behind the entities reached from the query, best first. */
  retrieve(query: string, queryEntities: string[], limit: number): { units: number[]; entities: string[] } {
    const g = this.cfg().graph;
    const seeds: string[] = [];
    const tryName = (name: string) => {
      const exact = this.resolve(name);
      if (exact && !seeds.includes(exact)) seeds.push(exact);
    };
    for (const name of queryEntities) tryName(name);
    if (seeds.length === 0) {
      // Released fallback: every query word longer than 3 characters, matched as a substring of entity names.
      const words = query
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 3);
      this.graph.forEachNode((node, attrs) => {
        if (seeds.length < g.maxSeeds && words.some((w) => (attrs.name as string).toLowerCase().includes(w)))
          seeds.push(node);
      });
    }
    const hop = new Map<string, number>();
    let frontier = seeds.slice(0, g.maxSeeds);
    for (const s of frontier) hop.set(s, 0);
    for (let h = 1; h <= g.maxHops; h++) {
      const next: string[] = [];
      for (const node of frontier) {
        this.graph.forEachNeighbor(node, (n) => {
          if (!hop.has(n)) {
            hop.set(n, h);
            next.push(n);
          }
        });
      }
      frontier = next;
    }
    // Neighbours by hop count (code) or decayed weight (paper); seeds stay first. Ties: more mentions first.
    const reached = [...hop.entries()]
      .filter(([, h]) => h > 0)
      .sort(
        (a, b) =>
          a[1] - b[1] ||
          (this.graph.getNodeAttribute(b[0], 'mentions') as number) -
            (this.graph.getNodeAttribute(a[0], 'mentions') as number),
      )
      .slice(0, g.maxNeighbors)
      .map(([n]) => n);
    const entities = [...seeds.slice(0, g.maxSeeds), ...reached];
    // A unit scores by the entities it mentions: each entity weighs its distance (1/(1+hop), or decay^hop in the
    // paper profile) times its rarity (idf over units), so hub entities such as the two speakers of a
    // conversation, which every unit mentions, add little.
    // Scores live in an array indexed by unit label: a query naming a speaker touches most units, and per-unit
    // map updates with string keys cost ~100x more than array adds at 100k units.
    const totalUnits = Math.max(1, this.unitCount);
    const score = new Float64Array(this.maxLabel + 1);
    const touched: number[] = [];
    for (const node of entities) {
      const h = hop.get(node) ?? 0;
      const units = this.graph.getNodeAttribute(node, 'units') as number[];
      const w = (g.decay === null ? 1 / (1 + h) : g.decay ** h) * Math.log(1 + totalUnits / units.length);
      for (const u of units) {
        if (score[u] === 0) touched.push(u);
        score[u] = (score[u] as number) + w;
      }
    }
    const units = topLabels(score, touched, limit);
    return { units, entities: entities.map((n) => this.graph.getNodeAttribute(n, 'name') as string) };
  }
}
