// Reads LoCoMo conversations: the per-conversation files in ../shared/data/locomo (flat objects) and the
// benchmark's own locomo10.json shape (a list of {sample_id, conversation, qa}). Only turns (id, speaker, text,
// image caption) and session dates become episodes; answers and evidence stay here for the checker.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';

export interface Turn {
  id: string;
  speaker: string;
  text: string;
  caption?: string;
  session: number;
}

export interface Session {
  index: number;
  dateText: string;
  /** ms since epoch (UTC), parsed from dateText. */
  time: number;
  turns: Turn[];
}

export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface Question {
  id: string;
  conversation: string;
  question: string;
  /** Gold answer (category 5: the adversarial answer, which is not what a good agent says). */
  answer: string;
  category: number;
  /** Evidence turn ids that exist in the conversation. */
  evidence: string[];
}

export interface Conversation {
  id: string;
  file: string;
  speakers: [string, string];
  sessions: Session[];
  turns: Map<string, Turn>;
  questions: Question[];
}

export interface LoadResult {
  conversations: Conversation[];
  files: { file: string; sha256: string; conversations: string[] }[];
  /** Problems that did not stop loading (a bad evidence id, a file skipped with its reason). */
  warnings: string[];
}

const TurnSchema = z
  .object({ speaker: z.string(), dia_id: z.string(), text: z.string(), blip_caption: z.string().optional() })
  .passthrough();
const QaSchema = z
  .object({
    question: z.string(),
    answer: z.union([z.string(), z.number()]).optional(),
    adversarial_answer: z.union([z.string(), z.number()]).optional(),
    evidence: z.array(z.string()).default([]),
    category: z.number().int().min(1).max(5),
  })
  .passthrough();
const FlatSchema = z.object({ speaker_a: z.string(), speaker_b: z.string(), qa: z.array(QaSchema) }).passthrough();

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → ms since epoch (UTC); undefined when it does not parse. */
export function parseSessionDate(text: string): number | undefined {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) return undefined;
  const month = MONTHS.indexOf((m[5] as string).toLowerCase());
  if (month < 0) return undefined;
  let hour = Number(m[1]) % 12;
  if ((m[3] as string).toLowerCase() === 'pm') hour += 12;
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

const EVIDENCE_ID = /^D\d+:\d+$/;

function toConversation(id: string, file: string, raw: Record<string, unknown>, warnings: string[]): Conversation {
  const flat = FlatSchema.parse(raw);
  const sessions: Session[] = [];
  const turns = new Map<string, Turn>();
  const indices = Object.keys(raw)
    .map((k) => /^session_(\d+)$/.exec(k)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  let lastTime = Date.UTC(2000, 0, 1);
  for (const n of indices) {
    const list = z.array(TurnSchema).safeParse(raw[`session_${n}`]);
    if (!list.success) {
      warnings.push(`${file}: session_${n} skipped: ${z.prettifyError(list.error)}`);
      continue;
    }
    if (list.data.length === 0) continue;
    const dateText = String(raw[`session_${n}_date_time`] ?? '');
    let time = parseSessionDate(dateText);
    if (time === undefined) {
      warnings.push(`${file}: session_${n} has no readable date ("${dateText}"); placed one day after the previous one`);
      time = lastTime + 86_400_000;
    }
    lastTime = time;
    const sessionTurns = list.data.map((t) => {
      const turn: Turn = { id: t.dia_id, speaker: t.speaker, text: t.text, session: n };
      if (t.blip_caption) turn.caption = t.blip_caption;
      turns.set(turn.id, turn);
      return turn;
    });
    sessions.push({ index: n, dateText, time, turns: sessionTurns });
  }
  if (sessions.length === 0) throw new Error('no sessions with turns');
  const seen = new Map<string, number>();
  const questions: Question[] = flat.qa.map((q) => {
    const base = `${id}:${createHash('sha1').update(q.question).digest('hex').slice(0, 10)}`;
    const dup = (seen.get(base) ?? 0) + 1;
    seen.set(base, dup);
    const evidence: string[] = [];
    for (const entry of q.evidence) {
      for (const part of entry.split(/[;,\s]+/).filter(Boolean)) {
        if (EVIDENCE_ID.test(part) && turns.has(part)) evidence.push(part);
        else warnings.push(`${file}: question "${q.question.slice(0, 60)}" cites evidence "${part}", which is not a turn`);
      }
    }
    return {
      id: dup === 1 ? base : `${base}-${dup}`,
      conversation: id,
      question: q.question,
      answer: String(q.category === 5 ? (q.adversarial_answer ?? q.answer ?? '') : (q.answer ?? '')),
      category: q.category,
      evidence: [...new Set(evidence)],
    };
  });
  return { id, file, speakers: [flat.speaker_a, flat.speaker_b], sessions, turns, questions };
}

/** Loads every *.json conversation file in `dir`. Files that cannot be read are reported, not silently dropped. */
export function loadConversations(dir: string): LoadResult {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    names = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (err) {
    throw new Error(`cannot read LoCoMo data folder ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const result: LoadResult = { conversations: [], files: [], warnings: [] };
  for (const name of names) {
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    const sha256 = createHash('sha256').update(text).digest('hex');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      result.warnings.push(`${name} skipped: not JSON (${(err as Error).message})`);
      continue;
    }
    // locomo10.json: a list of samples; a sample nests the conversation under "conversation".
    const samples: { id: string; raw: Record<string, unknown> }[] = [];
    const stem = basename(name, '.json');
    const asSample = (s: Record<string, unknown>, fallback: string) => ({
      id: String(s.sample_id ?? fallback),
      raw: s.conversation && typeof s.conversation === 'object' ? { ...(s.conversation as object), qa: s.qa } : s,
    });
    if (Array.isArray(json)) json.forEach((s, i) => samples.push(asSample(s as Record<string, unknown>, `${stem}-${i}`)));
    else if (json && typeof json === 'object') samples.push(asSample(json as Record<string, unknown>, stem));
    const ids: string[] = [];
    for (const s of samples) {
      try {
        result.conversations.push(toConversation(s.id, name, s.raw, result.warnings));
        ids.push(s.id);
      } catch (err) {
        const detail = err instanceof z.ZodError ? z.prettifyError(err) : (err as Error).message;
        result.warnings.push(`${name}: conversation ${s.id} skipped: ${detail}`);
      }
    }
    result.files.push({ file: name, sha256, conversations: ids });
  }
  const dupIds = result.conversations.map((c) => c.id).filter((id, i, all) => all.indexOf(id) !== i);
  if (dupIds.length) throw new Error(`conversation ids appear twice in ${dir}: ${[...new Set(dupIds)].join(', ')}`);
  if (result.conversations.length === 0) {
    throw new Error(`no LoCoMo conversations could be read from ${dir}${result.warnings.length ? `: ${result.warnings.join('; ')}` : ''}`);
  }
  return result;
}
