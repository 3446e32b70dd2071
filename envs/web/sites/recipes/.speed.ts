import { startSite } from '../../server.ts';
import { withPage, closeBrowsers } from '../../browser/browser.ts';
import { observe } from '../../browser/observe.ts';
import { recipesSite } from './index.ts';
const running = await startSite(recipesSite, recipesSite.createDb(0));
await withPage(async ({ page }) => {
  for (const p of ['/', '/recipes/5', '/cuisines/thai', '/search/advanced?diet=Vegan&go=1', '/authors/3', '/recipes']) {
    const t0 = Date.now();
    for (let k = 0; k < 5; k++) { await page.goto(running.url + p); await observe(page, { screenshot: false }); }
    const t1 = Date.now();
    for (let k = 0; k < 5; k++) await observe(page, { screenshot: true });
    console.log(p.padEnd(36), 'goto+snapshot', ((t1 - t0) / 5).toFixed(0), 'ms; snapshot+screenshot', ((Date.now() - t1) / 5).toFixed(0), 'ms; nodes', (await observe(page, { screenshot: false })).nodes.length);
  }
});
await running.close(); await closeBrowsers();
