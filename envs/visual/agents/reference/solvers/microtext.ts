// Micro-text: find the line of small print the question names (S/N, LOT, EXP, FW) and report its value.
// Generic procedure: read the whole image, then panel-sized regions of a 3×3 grid in a seeded order until a
// matching line turns up; panels a failed sibling answered from are skipped.
import { call, type Box } from '../../../tools/grammar.ts';
import type { OcrLineData } from '../../../tools/ocr-tool.ts';
import { dataOf, type Executed, shuffled, type Solver } from '../solver.ts';

interface Field {
  ask: RegExp;
  /** The value on a line of OCR output. */
  read: RegExp;
}

const FIELDS: Field[] = [
  { ask: /serial|\bs\/n\b/i, read: /S\s*[/|Il1]?\s*N\s*[:.]?\s*([A-Z0-9]{3})\s*-\s*([A-Z0-9]{4})/i },
  { ask: /\blot\b/i, read: /L\s*[O0]\s*T\s*[:.]?\s*(\d{5})/i },
  { ask: /expir|\bexp\b/i, read: /E\s*X\s*P\s*[:.]?\s*(\d{2})\s*[/|]\s*(\d{2})/i },
  { ask: /firmware|\bfw\b/i, read: /F\s*W\s*[:.]?\s*v?\s*(\d)\s*[.,]\s*(\d)\s*[.,]\s*(\d)/i },
];

function fieldOf(instruction: string): Field | undefined {
  return FIELDS.find((f) => f.ask.test(instruction));
}

function valueIn(field: Field, lines: OcrLineData[]): string | undefined {
  for (const l of lines) {
    const m = l.text.match(field.read);
    if (!m) continue;
    if (field === FIELDS[0]) return `${m[1]}-${m[2]}`.toUpperCase();
    if (field === FIELDS[2]) return `${m[1]}/${m[2]}`;
    if (field === FIELDS[3]) return `v${m[1]}.${m[2]}.${m[3]}`;
    return m[1];
  }
  return undefined;
}

const linesOf = (e: Executed) => dataOf<{ lines?: OcrLineData[] }>(e, 'ocr')?.lines ?? [];

const CELLS: Box[] = [];
for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) CELLS.push([c * 333, r * 333, c * 333 + 332, r * 333 + 332]);

export const microtextSolver: Solver = {
  family: 'microtext',
  match: (instruction) => (fieldOf(instruction) && /printed|runs on|label|tag|panel|board|rig/i.test(instruction) ? 2 : 0),

  derive(instruction, executed) {
    const field = fieldOf(instruction);
    if (!field) return undefined;
    for (let i = executed.length - 1; i >= 0; i--) {
      const v = valueIn(field, linesOf(executed[i] as Executed));
      if (v) return v;
    }
    return undefined;
  },

  async generic(ctx) {
    const field = fieldOf(ctx.instruction);
    if (!field) return undefined;
    // Where failed siblings took their (wrong) answer from: the last region they read.
    const avoided = new Set<string>();
    for (const acts of ctx.avoid) {
      const reads = acts.filter((c) => c.name === 'ocr' && c.box);
      const last = reads[reads.length - 1];
      if (last?.box) avoided.add(last.box.join(','));
    }
    const whole = await ctx.exec(call('ocr', [0, 0, 999, 999]), 'read the whole board first');
    const direct = whole ? valueIn(field, linesOf(whole)) : undefined;
    if (direct && !avoided.has('0,0,999,999')) return direct;
    for (const box of shuffled(CELLS, ctx.random)) {
      if (avoided.has(box.join(','))) continue;
      const e = await ctx.exec(call('ocr', box), 'the print is small: read one panel at a time');
      if (!e) break;
      const v = valueIn(field, linesOf(e));
      if (v) return v;
    }
    return undefined;
  },
};
