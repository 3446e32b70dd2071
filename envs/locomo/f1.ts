// LoCoMo's answer metric, following the benchmark's evaluation rules: answers are normalised (commas,
// punctuation and the words a/an/the/and removed, lower case), Porter-stemmed, and compared by token F1.
// Category 1 (multi-hop) averages, over the gold answer's comma-separated parts, the best F1 against any part of
// the prediction; category 3 uses the gold answer up to its first ';'; category 5 (adversarial) scores 1 when
// the prediction says the information is not there ("no information available" / "not mentioned"), else 0.
import { stemmer } from 'stemmer';

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

export function normalizeAnswer(s: string): string {
  return s
    .replace(/,/g, '')
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .replace(/\b(a|an|the|and)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

function stems(s: string): string[] {
  return normalizeAnswer(s)
    .split(' ')
    .filter(Boolean)
    .map((w) => stemmer(w));
}

export function tokenF1(prediction: string, gold: string): number {
  const p = stems(prediction);
  const g = stems(gold);
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

export function multiAnswerF1(prediction: string, gold: string): number {
  const preds = prediction.split(',').map((s) => s.trim());
  const golds = gold.split(',').map((s) => s.trim());
  const best = golds.map((g) => Math.max(...preds.map((p) => tokenF1(p, g))));
  return best.reduce((a, b) => a + b, 0) / best.length;
}

export function locomoScore(prediction: string, gold: string, category: number): number {
  switch (category) {
    case 1:
      return multiAnswerF1(prediction, gold);
    case 3:
      return tokenF1(prediction, gold.split(';')[0]?.trim() ?? gold);
    case 5: {
      const p = prediction.toLowerCase();
      return p.includes('no information available') || p.includes('not mentioned') ? 1 : 0;
    }
    default:
      return tokenF1(prediction, gold);
  }
}
