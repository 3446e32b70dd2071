// LoCoMo written in the data format: the proof that the generic path scores real data exactly as the built-in
// LoCoMo environment does (bench/data-equivalence.ts, test/envs/data/equivalence.test.ts).
import { LOCOMO_BUDGET } from '../locomo/environment.ts';
import { CATEGORY_NAMES, type Conversation } from '../locomo/load.ts';

export function locomoToDataLines(conversations: Conversation[], name = 'locomo-as-data'): string[] {
  const header = {
    type: 'dataset',
    name,
    description: 'LoCoMo: very long conversations between two people over many sessions (dates given), then questions about them.',
    scoring: 'evidence-recall',
    budget: LOCOMO_BUDGET,
    trainShare: 0.2,
  };
  const worlds = conversations.map((c) => ({
    type: 'world',
    id: c.id,
    speakers: c.speakers,
    sessions: c.sessions.map((s) => ({ time: s.time, label: s.dateText, turns: s.turns.map((t) => ({ id: t.id, speaker: t.speaker, text: t.text, ...(t.caption ? { caption: t.caption } : {}) })) })),
    questions: c.questions.map((q) => ({
      id: q.id,
      question: q.question,
      scenario: CATEGORY_NAMES[q.category] ?? `category-${q.category}`,
      ...(q.answer ? { answers: [q.answer] } : {}),
      evidence: q.evidence,
    })),
  }));
  return [header, ...worlds].map((x) => JSON.stringify(x));
}
