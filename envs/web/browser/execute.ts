// Carrying out one action on a page. Elements are found by ref on the current snapshot, or by role and name
// (exact, then case- and space-insensitive; `#k` for the k-th match). Failures (no such element, covered by a
// modal, not a select) come back as messages the agent reads; they cost the step but not the episode.
import type { Page } from 'playwright-core';
import type { AxNode } from './observation.ts';
import { findAll } from './snapshot.ts';
import type { WebAction } from './grammar.ts';
import type { NavigationTracker } from './navigation.ts';

/**
 * Per-action limit. Generous, because a loaded machine is slow; an element under a modal is caught before the
 * click by a hit test instead of by waiting this out.
 */
const ACTION_TIMEOUT = 10_000;

export interface Resolved {
  node?: AxNode;
  error?: string;
}

export function resolveTarget(nodes: AxNode[], a: WebAction): Resolved {
  if (a.window) return {};
  if (a.role && a.name !== undefined) {
    const hits = findAll(nodes, a.role, a.name);
    const node = hits[(a.nth ?? 1) - 1];
    if (node?.ref) return { node };
    if (!a.ref) {
      const same = findAll(nodes, a.role)
        .map((n) => n.name)
        .filter(Boolean)
        .slice(0, 8);
      return {
        error: `no ${a.role} named "${a.name}"${a.nth ? ` #${a.nth}` : ''} on this page${same.length ? ` (${a.role}s here: ${same.map((s) => `"${s}"`).join(', ')})` : ''}`,
      };
    }
  }
  if (a.ref) {
    const node = nodes.find((n) => n.ref === a.ref);
    return node ? { node } : { error: `no element [${a.ref}] on this page (numbers change when the page changes)` };
  }
  return { error: 'the action names no element' };
}

/** What sits on top of the element's centre when it is not the element (a modal, an overlay), else undefined. */
async function coveredBy(loc: ReturnType<Page['locator']>): Promise<string | undefined> {
  // Runs in the page (no DOM types here).
  const cover = await loc
    .evaluate((el) => {
      type El = {
        getBoundingClientRect(): { x: number; y: number; width: number; height: number };
        contains(o: unknown): boolean;
        scrollIntoView(o: unknown): void;
        tagName: string;
        className?: string;
        textContent: string | null;
        getAttribute(n: string): string | null;
      };
      const e = el as unknown as El;
      e.scrollIntoView({ block: 'center', inline: 'center' });
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return null;
      const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): El | null } })
        .document;
      const top = doc.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      if (!top || e.contains(top) || top.contains(e)) return null;
      const label = top.getAttribute('aria-label') ?? (top.textContent ?? '').trim().slice(0, 40);
      return `${top.tagName.toLowerCase()}${top.className ? `.${String(top.className).split(' ')[0]}` : ''}${label ? ` "${label}"` : ''}`;
    })
    .catch(() => null);
  return cover ?? undefined;
}

function short(err: unknown): string {
  const m = (err as Error).message.split('\n');
  const covered = m.find((l) => /intercepts pointer events/.test(l));
  if (covered) return `the element is covered by another element (${covered.replace(/^.*?-\s*/, '').slice(0, 120)})`;
  if (/Timeout/.test(m[0] as string)) return 'the element did not respond in time (hidden, disabled or covered?)';
  return (m[0] as string).replace(/^locator\.\w+:\s*/, '').slice(0, 200);
}

/** Runs a resolved action; returns an error message or undefined. ANSWER is the episode's business, not the page's. */
export async function execute(
  page: Page,
  nav: NavigationTracker,
  a: WebAction,
  node: AxNode | undefined,
): Promise<string | undefined> {
  const loc = node?.ref ? page.locator(`aria-ref=${node.ref}`) : undefined;
  try {
    switch (a.kind) {
      case 'click': {
        const target = loc as NonNullable<typeof loc>;
        const cover = await coveredBy(target);
        if (cover) return `the element is covered by another element (${cover}); deal with that first`;
        await target.click({ timeout: ACTION_TIMEOUT });
        break;
      }
      case 'type':
        if (!loc) return 'nothing to type into';
        await loc.fill(a.text ?? '', { timeout: ACTION_TIMEOUT });
        await loc.press('Enter', { timeout: ACTION_TIMEOUT });
        break;
      case 'select': {
        if (!loc) return 'nothing to select in';
        // Runs in the page (no DOM types here): a native select lists its option labels.
        const options = await loc.evaluate((el) => {
          const sel = el as unknown as { tagName: string; options: ArrayLike<{ label: string }> };
          return sel.tagName === 'SELECT' ? Array.from(sel.options, (o) => o.label) : null;
        });
        if (!options) return `the element is a ${node?.role ?? 'element'}, not a select (use Click)`;
        const want = (a.text ?? '').trim().toLowerCase();
        const label = options.find((o) => o.trim().toLowerCase() === want);
        if (label === undefined)
          return `no option "${a.text}" (options: ${options
            .slice(0, 12)
            .map((o) => `"${o}"`)
            .join(', ')})`;
        await loc.selectOption({ label }, { timeout: ACTION_TIMEOUT });
        break;
      }
      case 'scroll': {
        const dy = a.direction === 'up' ? -500 : 500;
        if (loc) await loc.evaluate((el, d) => el.scrollBy(0, d), dy);
        else await page.mouse.wheel(0, dy);
        break;
      }
      case 'back':
        await page.goBack({ timeout: 5_000 });
        break;
      case 'wait':
        await page.waitForTimeout(300);
        break;
      case 'answer':
        return undefined;
    }
  } catch (err) {
    await nav.settle();
    return short(err);
  }
  await nav.settle();
  return undefined;
}
