// HTML for the mini-sites: escaping and one page layout (title, top navigation, main content). Pages are plain
// server-rendered HTML with forms and links; a site adds a few lines of inline script only where its quirk needs it.

export function esc(s: unknown): string {
  return String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export interface PageOptions {
  /** The site's name, shown in the header. */
  site: string;
  title: string;
  /** Header links as [label, href]. */
  nav?: [string, string][];
  body: string;
  /** Extra CSS for this site. */
  css?: string;
}

// The details rule: Chromium's accessibility tree still lists the <option>s of a <select> inside a closed <details>,
// so a snapshot would show controls nobody can see or reach. Hiding the closed content removes them.
const BASE_CSS = `
body{font:14px/1.4 "DejaVu Sans",sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#2b3a55;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center}
header a{color:#fff} header strong{font-size:18px;margin-right:12px}
main{padding:12px 16px;max-width:980px}
table{border-collapse:collapse} td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
.card{border:1px solid #ddd;background:#fff;padding:8px 12px;margin:6px 0}
.modal{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:10}
.modal>div{background:#fff;padding:20px;min-width:320px}
.muted{color:#777;font-size:12px}
details:not([open])>*:not(summary){display:none}
`;

export function page(o: PageOptions): string {
  const nav = (o.nav ?? []).map(([label, href]) => `<a href="${esc(href)}">${esc(label)}</a>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(o.title)} · ${esc(o.site)}</title><style>${BASE_CSS}${o.css ?? ''}</style></head><body><header><strong>${esc(o.site)}</strong><nav style="display:flex;gap:14px">${nav}</nav></header><main><h1>${esc(o.title)}</h1>${o.body}</main></body></html>`;
}
