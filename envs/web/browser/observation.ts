// What an agent sees of a page: the URL, the title, Playwright's AI aria snapshot (YAML with [ref=eN] and
// [box=x,y,w,h]) parsed into nodes, and a screenshot with numbered boxes (Set-of-Marks) drawn from those boxes.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One line of the aria snapshot. */
export interface AxNode {
  /** "e12" for elements Playwright can act on (refs are valid until the page changes). */
  ref?: string;
  /** link, button, textbox, combobox, option, checkbox, heading, cell, text, listitem, group, dialog, ... */
  role: string;
  /** The accessible name (quoted in the snapshot), or "" */
  name: string;
  /** Inline text after the colon (a text node's text, a textbox's value, a heading's text when unnamed). */
  text?: string;
  /** Bracketed flags and values: checked, selected, expanded, disabled, level, active, cursor, url. */
  attrs: Record<string, string | true>;
  box?: Box;
  /** Indentation level in the snapshot (0 = top). */
  depth: number;
}

export interface Observation {
  url: string;
  title: string;
  /** The snapshot as Playwright wrote it (boxes removed), for agents and trajectories. */
  snapshot: string;
  nodes: AxNode[];
  /** JPEG with numbered boxes, when screenshots are on. */
  screenshot?: Buffer;
}
