// Micro-text scenes (AgentVista's zoom tasks): a 2400×1800 equipment board of nine panels, each with a large
// title and a line of 12-pixel print that is legible only in a panel-sized crop. The question asks for one field
// (serial number, lot, expiry, firmware) of one particular unit. Three panels carry that kind of field; which
// one belongs to the unit asked about is fixed by the template's layout (the learnable quirk) and not written on
// the board, so an agent without memory reads the first matching panel it finds.
import { esc, FONT, svgDoc, text } from '../render.ts';
import type { Family, Template } from '../task.ts';
import { call } from '../tools/grammar.ts';
import { COLORS } from '../tools/palette.ts';
import { choice, int, SAFE_DIGITS, SAFE_LETTERS, safeString, sample } from './random.ts';

const W = 2400;
const H = 1800;
/** Panel cells, row-major: [row, col] in a 3×3 grid. */
type Cell = [number, number];

export function cellBox([r, c]: Cell): [number, number, number, number] {
  return [c * 333, r * 333, c * 333 + 332, r * 333 + 332];
}

type Kind = 'serial' | 'lot' | 'expiry' | 'firmware';

const FIELD: Record<Kind, (random: () => number) => { line: string; value: string; aliases: string[] }> = {
  serial: (rnd) => {
    const v = `${safeString(rnd, SAFE_LETTERS + SAFE_DIGITS, 3)}-${safeString(rnd, SAFE_LETTERS + SAFE_DIGITS, 4)}`;
    return { line: `S/N ${v}`, value: v, aliases: [`S/N ${v}`] };
  },
  lot: (rnd) => {
    const v = safeString(rnd, SAFE_DIGITS, 5);
    return { line: `LOT ${v}`, value: v, aliases: [`LOT ${v}`] };
  },
  expiry: (rnd) => {
    const v = `${String(int(rnd, 1, 12)).padStart(2, '0')}/${int(rnd, 27, 39)}`;
    return { line: `EXP ${v}`, value: v, aliases: [`EXP ${v}`] };
  },
  firmware: (rnd) => {
    const v = `v${choice(rnd, [...SAFE_DIGITS])}.${choice(rnd, [...SAFE_DIGITS])}.${choice(rnd, [...SAFE_DIGITS])}`;
    return { line: `FW ${v}`, value: v, aliases: [v.slice(1), `FW ${v}`] };
  },
};

const RIGS = [
  'Atlas',
  'Borealis',
  'Cobalt',
  'Dynamo',
  'Ember',
  'Falcon',
  'Granite',
  'Helix',
  'Ion',
  'Juniper',
  'Krypton',
  'Lumen',
  'Meridian',
  'Nova',
  'Orion',
  'Pioneer',
  'Quasar',
  'Radiant',
  'Summit',
  'Titan',
];
const UNITS = [
  'PUMP',
  'VALVE',
  'METER',
  'MIXER',
  'HEATER',
  'SENSOR',
  'DRIVE',
  'FILTER',
  'RELAY',
  'CHILLER',
  'DOSER',
  'SCALE',
];
const ICONS = [COLORS.blue, COLORS.green, COLORS.orange, COLORS.purple, COLORS.red, COLORS.cyan, COLORS.brown];
const FILLERS = ['Rev C', 'Made in EU', '230 V 50 Hz', 'IP54', 'Keep dry', 'Class II', 'Max 40 C'];

interface Spec {
  id: string;
  kind: Kind;
  question: (rig: string) => string;
  target: Cell;
  decoys: [Cell, Cell];
  quirk: string;
}

const SPECS: Spec[] = [
  {
    id: 'serial',
    kind: 'serial',
    question: (rig) => `What is the serial number (S/N) printed on the main unit of the "${rig}" rig?`,
    target: [2, 2],
    decoys: [
      [0, 1],
      [1, 0],
    ],
    quirk: 'the main unit is always the bottom-right panel; two other panels carry serial numbers too',
  },
  {
    id: 'lot',
    kind: 'lot',
    question: (rig) => `Which lot number (LOT) is printed on the reagent pack of the "${rig}" rig?`,
    target: [0, 2],
    decoys: [
      [1, 1],
      [2, 0],
    ],
    quirk: 'the reagent pack is always the top-right panel; two other panels carry lot numbers too',
  },
  {
    id: 'expiry',
    kind: 'expiry',
    question: (rig) => `What expiry date (EXP) is printed on the spare filter of the "${rig}" rig?`,
    target: [1, 0],
    decoys: [
      [0, 0],
      [2, 1],
    ],
    quirk: 'the spare filter is always the middle-left panel; two other panels carry expiry dates too',
  },
  {
    id: 'firmware',
    kind: 'firmware',
    question: (rig) => `Which firmware version (FW) runs on the controller of the "${rig}" rig?`,
    target: [0, 1],
    decoys: [
      [2, 2],
      [1, 2],
    ],
    quirk: 'the controller is always the top-middle panel; two other panels carry firmware versions too',
  },
];

function panel([r, c]: Cell, title: string, icon: string, lines: string[]): string {
  const x = c * (W / 3) + 24;
  const y = r * (H / 3) + 24;
  const w = W / 3 - 48;
  const h = H / 3 - 48;
  const small = lines.map((l, i) => text(x + 40, y + h - 70 + i * 24, l, { size: 12, fill: '#222222' })).join('');
  return (
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="18" fill="#f3f1ea" stroke="#9a9a9a" stroke-width="3"/>` +
    text(x + 40, y + 80, title, { size: 44, weight: 'bold', fill: '#333333' }) +
    `<rect x="${x + w - 190}" y="${y + 160}" width="130" height="130" rx="16" fill="${icon}"/>` +
    `<circle cx="${x + 130}" cy="${y + 250}" r="68" fill="none" stroke="#555555" stroke-width="8"/>` +
    small
  );
}

function template(spec: Spec): Template {
  return {
    id: spec.id,
    quirk: spec.quirk,
    generate(random) {
      const rig = choice(random, RIGS);
      const cells: Cell[] = [];
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) cells.push([r, c]);
      const same = (a: Cell, b: Cell) => a[0] === b[0] && a[1] === b[1];
      const titles = sample(random, UNITS, 9);
      const others = (Object.keys(FIELD) as Kind[]).filter((k) => k !== spec.kind);
      let answer = { value: '', aliases: [] as string[] };
      const body = cells
        .map((cell, i) => {
          let line: string;
          if (same(cell, spec.target)) {
            const f = FIELD[spec.kind](random);
            answer = { value: f.value, aliases: f.aliases };
            line = f.line;
          } else if (spec.decoys.some((d) => same(d, cell))) {
            let f = FIELD[spec.kind](random);
            while (f.value === answer.value) f = FIELD[spec.kind](random);
            line = f.line;
          } else {
            line = FIELD[choice(random, others)](random).line;
          }
          const lines = random() < 0.5 ? [line, choice(random, FILLERS)] : [choice(random, FILLERS), line];
          return panel(cell, `${titles[i]} ${int(random, 2, 9)}`, choice(random, ICONS), lines);
        })
        .join('');
      const svg = svgDoc(W, H, `<g font-family="${esc(FONT)}">${body}</g>`, '#dcdcd6');
      return {
        svg,
        instruction: spec.question(rig),
        answer: { kind: 'text', value: answer.value, aliases: answer.aliases },
        oracle: [call('ocr', cellBox(spec.target))],
      };
    },
  };
}

export const microtext: Family = {
  name: 'microtext',
  description:
    'Micro-text: a 2400×1800 equipment board of nine panels (3×3). Each panel has a large title and a line of ' +
    'tiny print (serial number S/N, LOT, EXP date or firmware FW) that OCR can read only in a panel-sized box. ' +
    'Three panels carry the kind of field asked about; which panel is the one asked about is fixed per question ' +
    'type and is not written on the board. Answer with the value only (e.g. 4F7-2K9C, 47296, 03/29, v3.7.4).',
  tools: [],
  templates: SPECS.map(template),
};
