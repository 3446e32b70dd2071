// A viewer page in real Chromium, opened once it says it is ready; any script error on the page fails the test
// when the page closes.
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';

export async function openViewerPage(browser: Browser, url: string, width = 1400): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('close', () => expect(errors).toEqual([]));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

/** The texts drawn in the tree (how many), and every pair of them whose boxes overlap. */
export async function treeTextOverlaps(page: Page): Promise<{ count: number; overlaps: string[] }> {
  return (await page.evaluate(`(() => {
    const boxes = [...document.querySelectorAll('#tree text')].filter((t) => t.textContent.trim()).map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }));
    const out = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].r, b = boxes[j].r;
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5) out.push(boxes[i].text + ' / ' + boxes[j].text);
    }
    return { count: boxes.length, overlaps: out };
  })()`)) as { count: number; overlaps: string[] };
}
