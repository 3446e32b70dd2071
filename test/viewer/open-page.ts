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
