// The page's files (page/: index.html, its styles and scripts) served as they are by the viewer, or inlined into
// one file by the report. The page reads its data from the server, unless the blob in index.html is filled in.
import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url));

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

/** A file of the page by its bare name (no folders), or null. */
export function pageAsset(name: string): { body: string; type: string } | null {
  if (!readdirSync(PAGE_DIR).includes(name)) return null;
  const type = TYPES[extname(name)];
  return type ? { body: readFileSync(`${PAGE_DIR}${name}`, 'utf8'), type } : null;
}

/** Text that can sit inside a <script> or <style> element without ending it. */
const scriptSafe = (s: string) => s.replace(/<\/(script|style)/gi, '<\\/$1');

/** JSON that can sit inside <script type="application/json">: `<` escaped, so no `</script>` or `<!--` can occur. */
export const jsonForScript = (data: unknown) => JSON.stringify(data).replace(/</g, '\\u003c');

/** index.html with its styles and scripts inlined and the data blob filled in: one file that needs nothing else. */
export function inlinePage(data: unknown): string {
  const html = readFileSync(`${PAGE_DIR}index.html`, 'utf8');
  const file = (name: string) => {
    const asset = pageAsset(name);
    if (!asset) throw new Error(`index.html refers to ${name}, which is not in ${PAGE_DIR}`);
    return scriptSafe(asset.body);
  };
  return html
    .replace(/<link rel="stylesheet" href="([\w.-]+)">/g, (_m, name: string) => `<style>\n${file(name)}</style>`)
    .replace(/<script src="([\w.-]+)"><\/script>/g, (_m, name: string) => `<script>\n${file(name)}</script>`)
    .replace('<script id="automemo-data" type="application/json"></script>', () => `<script id="automemo-data" type="application/json">${jsonForScript(data)}</script>`);
}
