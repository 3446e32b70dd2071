// Parsing Playwright's AI aria snapshot into nodes. A line looks like
//   - link "Cart (2)" [ref=e6] [cursor=pointer] [box=8,8,47,19]:
//   - /url: /cart
//   - textbox "Search" [ref=e7] [box=68,109,179,21]: ab
//   - paragraph [ref=e26]: "Total: $15 incl. tax"
// Property lines ("- /url: …") attach to the node above them.
import type { AxNode, Box } from './observation.ts';

const LINE = /^(\s*)- (.*)$/;

function unquote(s: string): string {
  const t = s.trim();
  if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  return t;
}

/** Splits `role "name" [a] [b=c]: text` into its parts. */
function parseHead(body: string): Omit<AxNode, 'depth'> | undefined {
  const m = body.match(/^([a-zA-Z]+)(?:\s+("(?:[^"\\]|\\.)*"))?((?:\s+\[[^\]]*\])*)\s*(?::\s?(.*))?$/);
  if (!m) return undefined;
  const node: Omit<AxNode, 'depth'> = { role: m[1] as string, name: m[2] ? unquote(m[2]) : '', attrs: {} };
  for (const a of (m[3] ?? '').matchAll(/\[([^\]=]+)(?:=([^\]]*))?\]/g)) {
    const key = a[1] as string;
    const value = a[2];
    if (key === 'ref' && value) node.ref = value;
    else if (key === 'box' && value) {
      const [x, y, w, h] = value.split(',').map(Number) as [number, number, number, number];
      node.box = { x, y, w, h } satisfies Box;
    } else node.attrs[key] = value ?? true;
  }
  const text = m[4]?.trim();
  if (text) node.text = unquote(text);
  return node;
}

export function parseSnapshot(yaml: string): AxNode[] {
  const nodes: AxNode[] = [];
  for (const raw of yaml.split('\n')) {
    const m = raw.match(LINE);
    if (!m) continue;
    const depth = (m[1] as string).length / 2;
    // Playwright single-quotes a line whose name holds ": " (- 'generic "Sort: Recently updated" [ref=e11]').
    const raw2 = m[2] as string;
    const body = /^'.*'(:.*)?$/.test(raw2) ? raw2.replace(/^'(.*)'(:.*)?$/, (_, inner: string, rest?: string) => `${inner.replace(/''/g, "'")}${rest ?? ''}`) : raw2;
    if (body.startsWith('/')) {
      // A property of the node above: "/url: /cart", "/placeholder: Search".
      const p = body.match(/^\/([a-z]+):\s?(.*)$/);
      const last = nodes[nodes.length - 1];
      if (p && last) last.attrs[p[1] as string] = unquote(p[2] as string);
      continue;
    }
    const head = parseHead(body);
    if (head) nodes.push({ ...head, depth });
    else nodes.push({ role: 'text', name: '', text: unquote(body.replace(/^text:\s?/, '')), attrs: {}, depth });
  }
  return nodes;
}

/** The snapshot without box annotations (what agents read and trajectories keep). */
export function withoutBoxes(yaml: string): string {
  return yaml.replace(/ \[box=[^\]]*\]/g, '');
}

const normName = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/** Nodes with this role and name (exact after normalising case and spaces; a RegExp tests the name). */
export function findAll(nodes: AxNode[], role: string, name?: string | RegExp): AxNode[] {
  return nodes.filter((n) => {
    if (n.role !== role) return false;
    if (name === undefined) return true;
    const label = n.name || n.text || '';
    return typeof name === 'string' ? normName(label) === normName(name) : name.test(label);
  });
}

export function find(nodes: AxNode[], role: string, name?: string | RegExp): AxNode | undefined {
  return findAll(nodes, role, name)[0];
}

/** The page's readable lines: each node's name and inline text ("cell $12.50", "paragraph Total: $15 incl. tax"). */
export function textLines(nodes: AxNode[]): string[] {
  return nodes.map((n) => [n.name, n.text].filter(Boolean).join(': ')).filter(Boolean);
}

/**
 * The value shown next to a label: a term's definition, a row's next cell, "Label: value" in one text node, or a
 * row header's cell. Undefined when the label is not on the page.
 */
export function valueOf(nodes: AxNode[], label: string | RegExp): string | undefined {
  const test = (s: string) => (typeof label === 'string' ? normName(s) === normName(label) : label.test(s));
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as AxNode;
    const own = n.text ?? n.name;
    const colon = own.match(/^([^:]{1,60}):\s*(.+)$/);
    if (colon && test(colon[1] as string)) return (colon[2] as string).trim();
    if (!test(own)) continue;
    if (['term', 'rowheader', 'cell', 'columnheader', 'text', 'strong', 'generic'].includes(n.role)) {
      const next = nodes.slice(i + 1).find((x) => x.depth <= n.depth + 1 && (x.text || x.name));
      if (next) return (next.text ?? next.name).trim();
    }
  }
  return undefined;
}
