// The lookup family's scenes: 1600×1000 pictures (festival poster, shopping arcade, summit stage, club kit, finish
// banner, expo hall) that show a few catalogue logos at small size in fixed slots, plus decoration and the event's own
// emblem (not in the catalogue). Each scene keeps at least 56 px of plain backdrop around every logo slot, so a
// box of the slot plus PAD (and the search tool's small margin) holds exactly one logo on one backdrop.
import { text } from '../../render.ts';
import { COLORS } from '../../tools/palette.ts';
import { emblemSvg } from './catalogue.ts';

export const W = 1600;
export const H = 1000;
/** Side of a logo in a scene, px. */
export const LOGO = 72;
/** Margin around a slot that the slot's search box includes, px. */
export const PAD = 34;

/** A logo's top-left corner in scene pixels. */
export interface Slot {
  x: number;
  y: number;
}

export interface SceneDesign {
  slots: Slot[];
  /** The picture without the logos: backdrop, decoration, title and the event's emblem. */
  backdrop(event: string, emblem: { outer: string; inner: string }): string;
}

/** The slot's search box in 0–999 coordinates. */
export function slotBox(s: Slot): [number, number, number, number] {
  const c = (v: number, d: number) => Math.max(0, Math.min(999, Math.round((v / d) * 1000)));
  return [c(s.x - PAD, W), c(s.y - PAD, H), c(s.x + LOGO + PAD, W), c(s.y + LOGO + PAD, H)];
}

const rect = (x: number, y: number, w: number, h: number, fill: string, extra = '') =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"${extra}/>`;

/** Festival poster: title, a sun-and-hills illustration, a white sponsor strip with three logos. */
export const POSTER: SceneDesign = {
  slots: [
    { x: 584, y: 838 },
    { x: 864, y: 838 },
    { x: 1144, y: 838 },
  ],
  backdrop: (event, emblem) =>
    rect(0, 0, W, H, '#fbf7ee') +
    emblemSvg(80, 60, 90, emblem.outer, emblem.inner) +
    text(W / 2, 135, `${event.toUpperCase()} FESTIVAL`, {
      size: 64,
      weight: 'bold',
      anchor: 'middle',
      fill: '#2b2b2b',
    }) +
    text(W / 2, 190, 'THREE DAYS · FORTY ACTS · ONE RIVER', { size: 28, anchor: 'middle', fill: '#555555' }) +
    `<circle cx="${W / 2}" cy="470" r="190" fill="#f4c9a4"/>` +
    `<path d="M120,700 Q520,470 880,640 T1480,620 L1480,720 L120,720 Z" fill="#b9ccb0"/>` +
    rect(120, 776, 1360, 196, '#ffffff', ' rx="14" stroke="#d9d2c4" stroke-width="3"') +
    text(170, 885, 'Supported by', { size: 28, fill: '#444444' }),
};

/** Shopping arcade: three shopfronts, each with a white sign board carrying a logo. */
export const ARCADE: SceneDesign = {
  slots: [0, 1, 2].map((k) => ({ x: 80 + k * 490 + 230 - LOGO / 2, y: 336 })),
  backdrop: (event, emblem) => {
    const facades = ['#e9dcc9', '#dfe6d8', '#e6dde8'];
    let body = rect(0, 0, W, H, '#eef2f6') + rect(0, 900, W, 100, '#d5d2cc');
    body += emblemSvg(70, 40, 90, emblem.outer, emblem.inner);
    body += text(190, 110, `${event} Arcade`, { size: 56, weight: 'bold', fill: '#2b2b2b' });
    for (let k = 0; k < 3; k++) {
      const x = 80 + k * 490;
      body += rect(x, 200, 460, 700, facades[k] as string);
      // Awning: narrow stripes above the sign.
      for (let s = 0; s < 10; s++) body += rect(x + s * 46, 200, 46, 60, s % 2 ? '#ffffff' : '#c9c1b5');
      body += rect(x + 95, 280, 270, 184, '#ffffff', ' rx="10"');
      body += rect(x + 50, 520, 160, 150, '#cfe3ef') + rect(x + 250, 520, 160, 150, '#cfe3ef');
      body += rect(x + 185, 710, 90, 190, '#9a8f85');
    }
    return body;
  },
};

/** Summit stage: a backdrop with the title, two partner logos in its top corners and a lectern. */
export const SUMMIT: SceneDesign = {
  slots: [
    { x: 190, y: 170 },
    { x: 1338, y: 170 },
  ],
  backdrop: (event, emblem) =>
    rect(0, 0, W, H, '#2f3440') +
    rect(120, 100, 1360, 640, '#f1f4f8', ' rx="8"') +
    text(W / 2, 250, `${event.toUpperCase()} SUMMIT`, { size: 70, weight: 'bold', anchor: 'middle', fill: '#243447' }) +
    text(W / 2, 310, 'Ideas · Industry · Impact', { size: 30, anchor: 'middle', fill: '#4a5a6a' }) +
    emblemSvg(W / 2 - 60, 380, 120, emblem.outer, emblem.inner) +
    rect(0, 740, W, 260, '#5b4a3f') +
    `<polygon points="700,640 900,640 870,900 730,900" fill="#8b8f97"/>` +
    rect(690, 620, 220, 26, '#6e737c'),
};

/** Club kit: a white shirt with a logo on the chest and one near the hem, the crest on the left chest. */
export const KIT: SceneDesign = {
  slots: [
    { x: 764, y: 430 },
    { x: 930, y: 760 },
  ],
  backdrop: (event, emblem) =>
    rect(0, 0, W, H, '#dfeedd') +
    text(90, 110, `${event} Club`, { size: 56, weight: 'bold', fill: '#24402a' }) +
    text(90, 160, 'Home kit · season preview', { size: 28, fill: '#3c5a40' }) +
    `<path d="M560,220 L700,170 Q800,215 900,170 L1040,220 L1240,330 L1170,470 L1060,420 L1060,900 L540,900 L540,420 L430,470 L360,330 Z" fill="#ffffff" stroke="#b8c2b8" stroke-width="4" stroke-linejoin="round"/>` +
    `<path d="M700,170 Q800,240 900,170" fill="none" stroke="#b8c2b8" stroke-width="6"/>` +
    emblemSvg(610, 265, 80, emblem.outer, emblem.inner),
};

/** Finish banner: a long white banner with the race title between two partner logos, over a road. */
export const BANNER: SceneDesign = {
  slots: [
    { x: 190, y: 214 },
    { x: 1338, y: 214 },
  ],
  backdrop: (event, emblem) =>
    rect(0, 0, W, H, '#e3eef7') +
    rect(0, 620, W, 380, '#9da3a8') +
    rect(780, 620, 40, 380, '#f2f2f2') +
    rect(60, 120, 50, 620, '#7a7f86') +
    rect(1490, 120, 50, 620, '#7a7f86') +
    rect(90, 150, 1420, 200, '#ffffff', ' stroke="#c9ced4" stroke-width="3"') +
    text(W / 2, 245, `${event.toUpperCase()} MARATHON`, {
      size: 52,
      weight: 'bold',
      anchor: 'middle',
      fill: '#1d2b3a',
    }) +
    text(W / 2, 300, 'FINISH', { size: 36, weight: 'bold', anchor: 'middle', fill: '#7a2620' }) +
    emblemSvg(W / 2 - 50, 420, 100, emblem.outer, emblem.inner),
};

/** Expo hall: the hall's front with the title sign and two hanging banners, one logo on each. */
export const EXPO: SceneDesign = {
  slots: [
    { x: 364, y: 470 },
    { x: 1164, y: 470 },
  ],
  backdrop: (event, emblem) =>
    rect(0, 0, W, H, '#e6edf3') +
    rect(0, 860, W, 140, '#c8c4bc') +
    emblemSvg(1300, 50, 90, emblem.outer, emblem.inner) +
    rect(180, 180, 1240, 40, '#8d99a6') +
    rect(200, 220, 1200, 640, '#b7c2cc') +
    rect(480, 250, 640, 90, '#ffffff', ' rx="8"') +
    text(W / 2, 310, `${event.toUpperCase()} EXPO`, { size: 44, weight: 'bold', anchor: 'middle', fill: '#1f2d3a' }) +
    rect(640, 560, 320, 300, '#5d6b78') +
    rect(797, 560, 6, 300, '#b7c2cc') +
    rect(300, 370, 200, 400, '#ffffff') +
    rect(1100, 370, 200, 400, '#ffffff'),
};

export const EMBLEM_COLORS = [COLORS.red, COLORS.blue, COLORS.green, COLORS.purple, COLORS.orange];
