// Observing a page: the AI aria snapshot with boxes, parsed; and a screenshot with numbered boxes (Set-of-Marks)
// drawn from the snapshot's boxes — no script is injected into the page, so the page is what the site served.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import type { AxNode, Observation } from './observation.ts';
import { parseSnapshot, withoutBoxes } from './snapshot.ts';
import { VIEWPORT } from './browser.ts';

/** Roles an agent acts on: these get numbered boxes. */
export const ACTIONABLE = new Set(['link', 'button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'tab', 'menuitem', 'switch', 'spinbutton', 'slider', 'option']);

function marked(n: AxNode): boolean {
  if (!n.ref || !n.box || n.box.w <= 0 || n.box.h <= 0) return false;
  return ACTIONABLE.has(n.role) || n.attrs.cursor === 'pointer';
}

const COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#9a6324', '#800000'];

function overlaySvg(nodes: AxNode[]): string {
  const parts: string[] = [];
  for (const n of nodes.filter(marked)) {
    const b = n.box as NonNullable<AxNode['box']>;
    if (b.y > VIEWPORT.height || b.x > VIEWPORT.width || b.y + b.h < 0) continue;
    const label = (n.ref as string).replace(/^e/, '');
    const color = COLORS[Number(label.replace(/\D/g, '')) % COLORS.length] as string;
    const lw = 7 * label.length + 6;
    parts.push(
      `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" fill="none" stroke="${color}" stroke-width="2" stroke-dasharray="4 2"/>`,
      `<rect x="${b.x}" y="${Math.max(0, b.y - 14)}" width="${lw}" height="14" fill="${color}"/>`,
      `<text x="${b.x + 3}" y="${Math.max(0, b.y - 14) + 11}" font-family="DejaVu Sans, sans-serif" font-size="11" fill="#fff">${label}</text>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${VIEWPORT.width}" height="${VIEWPORT.height}">${parts.join('')}</svg>`;
}

/**
 * Screenshot (JPEG) with the numbered boxes of the actionable elements. Undefined when Chromium cannot capture
 * one (it refuses now and then under heavy load): the snapshot still describes the page.
 */
export async function markedScreenshot(page: Page, nodes: AxNode[]): Promise<Buffer | undefined> {
  let shot: Buffer | undefined;
  for (let attempt = 0; attempt < 2 && !shot; attempt++) shot = await page.screenshot({ type: 'jpeg', quality: 70, timeout: 10_000 }).catch(() => undefined);
  if (!shot) return undefined;
  return sharp(shot)
    .composite([{ input: Buffer.from(overlaySvg(nodes)), top: 0, left: 0 }])
    .jpeg({ quality: 70 })
    .toBuffer();
}

export async function observe(page: Page, options: { screenshot: boolean }): Promise<Observation> {
  const raw = await page.ariaSnapshot({ mode: 'ai', boxes: true, timeout: 10_000 } as Parameters<Page['ariaSnapshot']>[0]);
  const nodes = parseSnapshot(raw);
  const obs: Observation = { url: page.url(), title: await page.title(), snapshot: withoutBoxes(raw), nodes };
  if (options.screenshot) {
    const shot = await markedScreenshot(page, nodes);
    if (shot) obs.screenshot = shot;
  }
  return obs;
}
