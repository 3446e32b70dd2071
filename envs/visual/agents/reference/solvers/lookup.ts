// Lookup (local visual search): find the logo of the company the question is about, search it in the catalogue,
// read the asked field off its page. Generic procedure: search the whole image (it matches poorly but lists the
// logo-like marks), search the marks one by one in a seeded order, visit the first confident match's page with
// the field the wording suggests (a seeded pick when the wording allows two fields). Marks a failed sibling
// answered from are searched last. After a replay, the replayed search names this task's company and the replayed
// visit names the field: one more visit finishes the task.
import { call, type Box, type ToolCall } from '../../../tools/grammar.ts';
import type { ImageSearchData, VisitData } from '../../../tools/lookup.ts';
import { dataOf, type Executed, pick, shuffled, type Solver } from '../solver.ts';

interface Reading {
  ask: RegExp;
  /** Page fields the wording can mean, most literal first. */
  fields: string[];
}

/** Question wording → page fields; the first matching reading wins, so specific wordings come first. */
const READINGS: Reading[] = [
  { ask: /ticker|stock symbol|\blisted\b/i, fields: ['Ticker'] },
  { ask: /headquarter/i, fields: ['Headquarters'] },
  { ask: /registered office/i, fields: ['Registered office'] },
  { ask: /\bbased\b|head office/i, fields: ['Headquarters', 'Registered office'] },
  { ask: /\bchair/i, fields: ['Chair'] },
  { ask: /\bceo\b|chief executive/i, fields: ['CEO'] },
  { ask: /\bheads?\b|\bleads?\b|in charge/i, fields: ['CEO', 'Chair'] },
  { ask: /\bfounded\b/i, fields: ['Founded'] },
  { ask: /incorporated/i, fields: ['Incorporated'] },
  { ask: /established|set up|\bstarted\b/i, fields: ['Founded', 'Incorporated'] },
  { ask: /\bemployees\b/i, fields: ['Employees'] },
  { ask: /how many people|workforce|\bstaff\b/i, fields: ['Employees', 'Workforce'] },
];

/** The company's role in the scene: what makes an instruction a lookup question. */
const ROLE = /\b(sponsor|partner|tenant|exhibitor|supplier)\b/i;

const readingOf = (instruction: string) => READINGS.find((r) => r.ask.test(instruction));

const searchOf = (e: Executed) => dataOf<ImageSearchData>(e, 'image_search');
const visitOf = (e: Executed) => dataOf<VisitData>(e, 'visit');

/** The search a procedure settled on: the last one before its last visit, else its last confident one. */
function chosenSearch(executed: Executed[]): ImageSearchData | undefined {
  let lastVisit = -1;
  executed.forEach((e, i) => {
    if (e.call?.name === 'visit') lastVisit = i;
  });
  const before = lastVisit >= 0 ? executed.slice(0, lastVisit) : executed;
  const searches = before.map(searchOf).filter((s): s is ImageSearchData => !!s);
  const last = searches[searches.length - 1];
  if (lastVisit >= 0 && last) return last;
  return executed.map(searchOf).filter((s): s is ImageSearchData => !!s?.matched).pop();
}

/** The field named by the last visit call (field=NAME), if any. */
function visitedField(executed: Executed[]): string | undefined {
  return executed.filter((e) => e.call?.name === 'visit' && e.call.args.field).pop()?.call?.args.field;
}

const topHit = (s: ImageSearchData | undefined) => (s?.matched ? s.hits[0]?.id : undefined);

/** A mark's box grown so the search sees the logo's backdrop around it. */
function padded([x0, y0, x1, y1]: Box): Box {
  const px = Math.round(0.4 * (x1 - x0));
  const py = Math.round(0.4 * (y1 - y0));
  const c = (v: number) => Math.max(0, Math.min(999, v));
  return [c(x0 - px), c(y0 - py), c(x1 + px), c(y1 + py)];
}

const centreIn = (b: Box, outer: Box) => {
  const cx = (b[0] + b[2]) / 2;
  const cy = (b[1] + b[3]) / 2;
  return cx >= outer[0] && cx <= outer[2] && cy >= outer[1] && cy <= outer[3];
};

/** The boxes failed siblings settled on (their last search before a visit). */
function failedRegions(avoid: ToolCall[][]): Box[] {
  const out: Box[] = [];
  for (const calls of avoid) {
    const visitAt = calls.map((c) => c?.name).lastIndexOf('visit');
    const searches = calls.slice(0, visitAt < 0 ? calls.length : visitAt).filter((c) => c?.name === 'image_search' && c.box);
    const last = searches[searches.length - 1];
    if (visitAt >= 0 && last?.box) out.push(last.box);
  }
  return out;
}

export const lookupSolver: Solver = {
  family: 'lookup',
  match: (instruction) => (ROLE.test(instruction) && readingOf(instruction) ? 3 : 0),

  derive(instruction, executed) {
    const visits = executed.map(visitOf).filter((v): v is VisitData => !!v);
    const visit = visits[visits.length - 1];
    // A replayed visit of another company's page says nothing about this task.
    if (!visit || topHit(chosenSearch(executed)) !== visit.id) return undefined;
    return visit.field?.value ?? visit.fields[readingOf(instruction)?.fields[0] ?? ''];
  },

  async generic(ctx) {
    const reading = readingOf(ctx.instruction);
    if (!reading) return undefined;
    const visitTop = async (id: string, field: string, thought: string) => {
      const e = await ctx.exec(call('visit', undefined, { field }, [id]), thought);
      return (e && visitOf(e)?.field?.value) ?? undefined;
    };
    // Continuing a replay: its search already names this task's company, its visit the field.
    const replayed = topHit(chosenSearch(ctx.executed));
    if (replayed) return visitTop(replayed, visitedField(ctx.executed) ?? pick(reading.fields, ctx.random), 'the replayed search found this task’s logo: open its page');

    const field = pick(reading.fields, ctx.random);
    const whole = await ctx.exec(call('image_search', [0, 0, 999, 999]), 'search the whole picture; it lists the logo-like marks');
    const all = whole ? searchOf(whole) : undefined;
    if (!all) return undefined;
    if (topHit(all)) return visitTop(topHit(all) as string, field, 'one logo fills the picture');
    const failed = failedRegions(ctx.avoid);
    const order = shuffled(all.marks.map(padded), ctx.random);
    const fresh = order.filter((b) => !failed.some((f) => centreIn(b, f)));
    for (const box of [...fresh, ...order.filter((b) => !fresh.includes(b))]) {
      const e = await ctx.exec(call('image_search', box), 'search one mark at a time; the role is not written on the picture');
      if (!e) return undefined;
      const id = topHit(searchOf(e));
      if (id) return visitTop(id, field, 'open the page of the first logo that matches');
    }
    return undefined;
  },
};
