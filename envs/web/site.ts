// What a mini-site is. A site is a seeded in-memory database (plain JSON data, rebuilt for every episode) and a
// request handler that renders HTML from it; the environment serves it on 127.0.0.1 (server.ts). Its templates
// make task instances from the database: the instruction, the start page, a checker that reads the database after
// the episode (or the answer), and a scripted oracle. Siblings (instances of one template) share a procedure —
// which control, which format, which detour — never an answer. Ground truth stays in the environment.
import type { CheckResult } from './check.ts';

/** Plain JSON data: cloned for every episode, compared field by field by the side-effect guard. */
export type SiteDb = Record<string, unknown>;

export interface SiteRequest {
  method: 'GET' | 'POST';
  /** Path without the query, e.g. "/products/12". */
  path: string;
  query: URLSearchParams;
  /** The urlencoded form body of a POST (empty for GET). */
  form: URLSearchParams;
  cookies: Record<string, string>;
}

export interface SiteResponse {
  /** Default 200 (or 303 with `redirect`). */
  status?: number;
  /** An HTML page (use html.ts's `page`). */
  html?: string;
  /** Redirect after a POST (303) to this path. */
  redirect?: string;
  setCookies?: Record<string, string>;
}

/** What the checker sees after an episode: the database before (fresh) and after, and the agent's answer. */
export interface CheckInput<DB extends SiteDb> {
  before: DB;
  after: DB;
  answer: string | undefined;
}

export interface WebInstance<DB extends SiteDb> {
  instruction: string;
  /** Path the episode starts on, e.g. "/". */
  start: string;
  check(input: CheckInput<DB>): CheckResult;
  /**
   * The scripted correct procedure, in the agent grammar with elements named by role and name instead of refs
   * (`Click link "Refine"`, `Type textbox "Search"; kettle`, `Select combobox "Sort"; Price: low to high`,
   * `ANSWER; 12.50`). Running it scores 1 (tested).
   */
  oracle: string[];
  /** The expected outcome in words, for the meta agent's explanations ("answer 12.50", "ticket #4 assigned to Ann"). */
  expected: string;
}

export interface WebTemplate<DB extends SiteDb> {
  id: string;
  /** The learnable quirk, in one line. */
  quirk: string;
  /** Instance `instance` of this template over the site's fresh database. */
  generate(random: () => number, instance: number, db: DB): WebInstance<DB>;
}

export interface WebSite<DB extends SiteDb = SiteDb> {
  /** Short lowercase name: "shop", "travel". */
  name: string;
  /** Shown to the agent as the site's name, e.g. "ShopLite". */
  title: string;
  /** One paragraph for the meta agent and the README. */
  description: string;
  /** The seeded database; called for every episode with the same seed, so it must be deterministic. */
  createDb(seed: number): DB;
  handle(db: DB, request: SiteRequest): SiteResponse;
  templates: WebTemplate<DB>[];
}
