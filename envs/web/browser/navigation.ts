// Waiting for the page an action led to. Playwright's click and press return once a navigation they caused has
// started, but the old document is still "loaded" then, so waiting for the load state alone can snapshot the old
// page. The tracker notes every main-frame navigation request and resolves when the new document has loaded (or
// the request failed, or 5 s passed).
import type { Page, Request } from 'playwright-core';

const NAVIGATION_TIMEOUT = 5_000;

export class NavigationTracker {
  private inflight: Promise<void> | undefined;

  constructor(private readonly page: Page) {
    page.on('request', (r) => this.onRequest(r));
  }

  private onRequest(r: Request): void {
    if (!r.isNavigationRequest() || r.frame() !== this.page.mainFrame()) return;
    if (this.inflight) return;
    this.inflight = new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.page.off('load', done);
        this.page.off('requestfailed', failed);
        this.inflight = undefined;
        resolve();
      };
      const failed = (f: Request) => {
        if (f.isNavigationRequest() && f.frame() === this.page.mainFrame()) done();
      };
      const timer = setTimeout(done, NAVIGATION_TIMEOUT);
      this.page.on('load', done);
      this.page.on('requestfailed', failed);
    });
  }

  /** Resolves when no navigation is under way (after letting one that an action just caused start). */
  async settle(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    while (this.inflight) await this.inflight;
  }
}
