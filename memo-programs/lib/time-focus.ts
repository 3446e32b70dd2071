// Time focus: a task that names a month or a year wants units from then; a task that asks "when" wants units that
// say when. Units' times are their source episode's time (ctx.now() when it was added).
import { ensureHits } from './fusion.ts';
import { named, type Stage, sortHits } from './retrieval-state.ts';
import { choice, declareStage, float, int } from './tunables.ts';

export const TIME_BOOST = declareStage({
  name: 'timeBoost',
  role: 'rescore',
  summary: 'hits from the span the task names, and for "when" tasks hits that say when, scaled up',
  options: {
    span: float(1.5, [0, 100], [1, 3]),
    when: float(1.3, [0, 100], [1, 3]),
    spillDays: int(35, [0, 3650], [0, 90]),
  },
  needs: 'dialogue',
});
export const RECENCY_BOOST = declareStage({
  name: 'recencyBoost',
  role: 'rescore',
  summary: 'hits from later episodes scaled up (for tasks asking about the latest state, or always)',
  options: { weight: float(0.5, [0, 10], [0.1, 3]), when: choice<'asked' | 'always'>('asked', ['asked', 'always']) },
});

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = 86_400_000;
const MONTH_YEAR =
  /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?\s+(?:of\s+)?((?:19|20)\d\d)\b/i;
const YEAR = /\b(?:in|during|of|throughout)\s+((?:19|20)\d\d)\b/i;
const TIME_WORDS =
  /\b(yesterday|today|tonight|recently|the other day|last (night|week|weekend|month|year|summer|winter|spring|fall|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (past )?(week|weekend|month|year|morning|summer|spring|fall|winter)|next (week|weekend|month|year|summer)|(\d+|a|an|one|two|three|four|five|six|a few|a couple( of)?|several) (days?|weeks?|months?|years?) ago|(19|20)\d\d|january|february|march|april|june|july|august|september|october|november|december)\b/i;

/** The time span a text names ("in June 2023", "in 2022"), widened by `spillDays` after it; undefined if none. */
export function namedSpan(text: string, spillDays: number): { from: number; to: number } | undefined {
  const m = MONTH_YEAR.exec(text);
  if (m) {
    const month = MONTHS.indexOf((m[1] as string).slice(0, 3).toLowerCase());
    const year = Number(m[2]);
    return { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1) + spillDays * DAY };
  }
  const y = YEAR.exec(text);
  if (y) return { from: Date.UTC(Number(y[1]), 0, 1), to: Date.UTC(Number(y[1]) + 1, 0, 1) + spillDays * DAY };
  return undefined;
}

/** Whether a text says when something happened (a date, a weekday, "last week", "two years ago"). */
export function saysWhen(text: string): boolean {
  return TIME_WORDS.test(text);
}

/** Whether a task asks for a time ("when", "how long", "what year"). */
export function asksWhen(text: string): boolean {
  return /\bwhen\b|\bhow long\b|\bwhat (year|month|date|day|time)\b|\bwhich (year|month|day)\b/i.test(text);
}

/**
 * Stage: hits from the span the task names are scaled by `span` (default 1.5; `spillDays` after it, default 35),
 * and, for tasks that ask when, hits that say when by `when` (default 1.3).
 * @reads queries, lists, hits, store
 * @writes hits (rescored and resorted, only when the first query names a span or asks when; a unit's time is its source episode's ctx.now() when added), lists (fused by ensureHits first, in that case only)
 * @order hits best first: score descending, ties by label ascending
 */
export function timeBoost(options: { span?: number; when?: number; spillDays?: number } = {}): Stage {
  const o = TIME_BOOST.resolve(options);
  return named('timeBoost', (state) => {
    const text = state.queries[0]?.text ?? '';
    const window = namedSpan(text, o.spillDays);
    const when = asksWhen(text);
    if (!window && !when) return;
    state.hits = sortHits(
      ensureHits(state).map((h) => {
        const unit = state.store.units[h.label];
        if (!unit) return h;
        let score = h.score;
        const time = state.store.sources[unit.source]?.time ?? 0;
        if (window && time >= window.from && time < window.to) score *= o.span;
        if (when && saysWhen(unit.text)) score *= o.when;
        return { ...h, score };
      }),
    );
  });
}

/** Whether a task asks about the current or latest state of something ("now", "currently", "most recently", "still"). */
export function asksLatest(text: string): boolean {
  return /\b(now|currently|current|these days|latest|most recent(ly)?|last time|still|anymore|any more|at the moment|nowadays)\b/i.test(
    text,
  );
}

/**
 * Stage: for tasks that ask about the current or latest state (`when: 'asked'`, the default) or for every task
 * (`when: 'always'`), hits from later episodes are scaled up: by 1 + `weight` × the episode's place in time among the
 * memory's episodes (0 for the first, 1 for the last; default weight 0.5). A fact that changed is then found in its
 * latest form first.
 * @reads queries, lists, hits, store
 * @writes hits (rescored and resorted, only when `when` is 'always' or the first query asks about the latest state; a unit's time is its source episode's ctx.now() when added), lists (fused by ensureHits first, in that case only)
 * @order hits best first: score descending, ties by label ascending
 */
export function recencyBoost(options: { weight?: number; when?: 'asked' | 'always' } = {}): Stage {
  const { weight, when } = RECENCY_BOOST.resolve(options);
  return named('recencyBoost', (state) => {
    if (when === 'asked' && !asksLatest(state.queries[0]?.text ?? '')) return;
    const times = state.store.sources.map((s) => s.time);
    const order = [...new Set(times)].sort((a, b) => a - b);
    const place = new Map(order.map((t, i) => [t, order.length > 1 ? i / (order.length - 1) : 1]));
    state.hits = sortHits(
      ensureHits(state).map((h) => {
        const unit = state.store.units[h.label];
        const time = unit ? (state.store.sources[unit.source]?.time ?? 0) : 0;
        return { ...h, score: h.score * (1 + weight * (place.get(time) ?? 0)) };
      }),
    );
  });
}

export const PREFER_LATEST = declareStage({
  name: 'preferLatest',
  role: 'rescore',
  summary: 'an older hit that says much the same as a later one scaled down: the latest state of a fact first',
  options: {
    overlap: float(0.4, [0.05, 1], [0.2, 0.8]),
    decay: float(0.5, [0, 1], [0.1, 0.9]),
    depth: int(50, [2, 500], [10, 100]),
  },
});

/**
 * Stage: among the top `depth` hits (default 50), a hit whose words overlap a hit from a later episode by at least
 * `overlap` (Jaccard over the units' index words, default 0.4) is taken for an older state of the same fact and
 * scaled by `decay` (default 0.5; once, however many later hits repeat it). A fact that changed is then shown in its
 * latest form first, and its older forms give way when the budget is short.
 * @reads lists, hits, store
 * @writes hits (rescored and resorted), lists (fused by ensureHits first when pending)
 * @order hits best first: score descending, ties by label ascending
 */
export function preferLatest(options: { overlap?: number; decay?: number; depth?: number } = {}): Stage {
  const { overlap, decay, depth } = PREFER_LATEST.resolve(options);
  return named('preferLatest', (state) => {
    const hits = ensureHits(state);
    const store = state.store;
    const head = hits.slice(0, depth);
    const when = (label: number) => {
      const u = store.units[label];
      return u ? [store.sources[u.source]?.time ?? 0, u.source] : [0, -1];
    };
    const later = (a: number, b: number) => {
      const [ta, sa] = when(a) as [number, number];
      const [tb, sb] = when(b) as [number, number];
      return tb > ta || (tb === ta && sb > sa);
    };
    const words = new Map(head.map((h) => [h.label, new Set(store.units[h.label]?.tokens ?? [])]));
    const older = new Set<number>();
    for (const a of head) {
      const wa = words.get(a.label) as Set<string>;
      if (!wa.size) continue;
      for (const b of head) {
        if (b === a || !later(a.label, b.label)) continue;
        const wb = words.get(b.label) as Set<string>;
        let shared = 0;
        for (const w of wa) if (wb.has(w)) shared++;
        if (shared / (wa.size + wb.size - shared) >= overlap) {
          older.add(a.label);
          break;
        }
      }
    }
    if (!older.size) return;
    state.hits = sortHits(hits.map((h) => (older.has(h.label) ? { ...h, score: h.score * decay } : h)));
  });
}
