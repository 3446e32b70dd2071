// The browser boundary: one Debian Chromium per process, launched on first use with the flags from
// ../shared/notes/dependencies.md and launched again after a crash. Each episode gets a fresh context (no cookies,
// storage or history from another episode) whose requests outside 127.0.0.1 are aborted. A crash, a disconnect
// or a launch failure is an InfraError: the episode is retried, never scored.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { InfraError } from '../../../engine/environment/contract.ts';

// Debian's old-headless shell (package chromium-headless-shell, the same Chromium build without the browser UI):
// the full browser's new headless mode spawns extra UI renderers for every new context; cycling context, page, two
// loads and two snapshots ran at 0.74 episodes/s with 4 contexts against 2.48 with the shell, in one run on a loaded
// machine. AUTOMEMO_CHROMIUM picks another binary, e.g. /usr/bin/chromium.
export const CHROMIUM_PATH = process.env.AUTOMEMO_CHROMIUM ?? '/usr/bin/chromium-headless-shell';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const VIEWPORT = { width: 1024, height: 768 };

let launching: Promise<Browser> | undefined;

function isLoopback(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'data:' || u.protocol === 'about:' || u.protocol === 'blob:') return true;
    return u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]';
  } catch {
    return false;
  }
}

async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new InfraError(
      `Chromium is not installed at ${CHROMIUM_PATH}; install Debian's chromium-headless-shell (apt-get install chromium-headless-shell; in a checkout of automemo, "node scripts/ensure-install.mjs --for web" does it) or set AUTOMEMO_CHROMIUM`,
    );
  }
  try {
    // Loaded on first launch: importing playwright costs every process 0.6 s, and most never open a page.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 60_000 });
    browser.on('disconnected', () => {
      if (launching) launching = undefined;
    });
    return browser;
  } catch (err) {
    throw new InfraError(`Chromium did not start: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
}

/** The shared browser (launched once; again after a crash). */
export async function sharedBrowser(): Promise<Browser> {
  launching ??= launch().catch((err) => {
    launching = undefined;
    throw err;
  });
  const b = await launching;
  if (!b.isConnected()) {
    launching = undefined;
    return sharedBrowser();
  }
  return b;
}

export interface EpisodePage {
  context: BrowserContext;
  page: Page;
  /** Requests aborted because they left 127.0.0.1. */
  blocked: string[];
  /** Set when the page or browser crashed during the episode. */
  crashed(): string | undefined;
}

/** Runs `fn` with a fresh context and page; closes them whatever happens. Crashes become InfraError. */
export async function withPage<T>(fn: (p: EpisodePage) => Promise<T>): Promise<T> {
  const browser = await sharedBrowser();
  let context: BrowserContext;
  try {
    context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block', javaScriptEnabled: true });
  } catch (err) {
    launching = undefined;
    throw new InfraError(`could not open a browser context: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
  const blocked: string[] = [];
  let crash: string | undefined;
  browser.once('disconnected', () => (crash ??= 'the browser disconnected'));
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLoopback(url)) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('crash', () => (crash ??= 'the page crashed'));
  try {
    const out = await fn({ context, page, blocked, crashed: () => crash });
    if (crash) throw new InfraError(`browser failure: ${crash}`);
    return out;
  } catch (err) {
    if (err instanceof InfraError) throw err;
    if (
      crash ||
      !browser.isConnected() ||
      /Target (page, context or browser )?(has been )?closed|Browser has been closed|crash/i.test(
        (err as Error).message,
      )
    ) {
      throw new InfraError(`browser failure: ${crash ?? (err as Error).message.split('\n')[0]}`, { cause: err });
    }
    throw err;
  } finally {
    await context.close().catch(() => {});
  }
}

export async function closeBrowsers(): Promise<void> {
  const b = launching;
  launching = undefined;
  if (b) await (await b.catch(() => undefined))?.close().catch(() => {});
}
