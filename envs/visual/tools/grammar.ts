// The tool-call grammar shared by both agents, the trajectories and memory payloads:
//   name [x1,y1,x2,y2] key=value key="a quoted value" word
// Boxes are in 0–999 coordinates of the task image (AgentVista's convention). A final answer is
// <answer>…</answer>. Parsing is tolerant (numbering, "Action:", a trailing "-> result"), so a call can be read
// back from any memory format that kept the line.

/** x1, y1, x2, y2 in 0–999 image coordinates. */
export type Box = [number, number, number, number];

export interface ToolCall {
  name: string;
  box?: Box;
  /** key=value arguments. */
  args: Record<string, string>;
  /** Bare words after the name and box (e.g. the page id of `visit`). */
  words: string[];
}

export const FULL: Box = [0, 0, 999, 999];

const NAME = /^[a-z][a-z_]*$/;

export function formatBox(b: Box): string {
  return `[${b.join(',')}]`;
}

function quote(v: string): string {
  return /^[\w.#%+-]+$/.test(v) ? v : `"${v.replace(/"/g, "'")}"`;
}

export function formatCall(c: ToolCall): string {
  const parts = [c.name];
  if (c.box) parts.push(formatBox(c.box));
  for (const w of c.words) parts.push(quote(w));
  for (const [k, v] of Object.entries(c.args)) parts.push(`${k}=${quote(v)}`);
  return parts.join(' ');
}

export function call(name: string, box?: Box, args: Record<string, string> = {}, words: string[] = []): string {
  return formatCall({ name, ...(box ? { box } : {}), args, words });
}

/** Reads a box "[a,b,c,d]" (spaces allowed); numbers are clamped to 0–999 and ordered. */
export function parseBox(s: string): Box | undefined {
  const m = s.match(/^\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]$/);
  if (!m) return undefined;
  const n = m.slice(1, 5).map((x) => Math.max(0, Math.min(999, Math.round(Number(x))))) as Box;
  return [Math.min(n[0], n[2]), Math.min(n[1], n[3]), Math.max(n[0], n[2]), Math.max(n[1], n[3])];
}

function tokens(s: string): string[] {
  const out: string[] = [];
  const re = /\[[^\]]*\]|[\w.#%+-]+="[^"]*"|"[^"]*"|\S+/g;
  for (const m of s.matchAll(re)) out.push(m[0]);
  return out;
}

const unquote = (s: string) => (s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s);

/**
 * A tool call from one line of text, or undefined. Accepts "3. ocr [1,2,3,4] -> text", "Action: zoom [..]",
 * "<tool>zoom [..]</tool>", "zoom([..])"; `known` limits the names accepted.
 */
export function parseCall(line: string, known?: ReadonlySet<string>): ToolCall | undefined {
  let s = line.trim();
  const tagged = s.match(/<tool>([\s\S]*?)<\/tool>/i);
  if (tagged) s = (tagged[1] as string).trim();
  s = s
    .replace(/^[-*•]\s*/, '')
    .replace(/^(?:step\s*)?\d+[.):]\s*/i, '')
    .replace(/^(?:action|tool|call)\s*:\s*/i, '')
    .replace(/\s+(?:->|→|=>)\s[\s\S]*$/, '')
    .replace(/\s+\[(?:error|result)[^\]]*\]$/i, '')
    .trim();
  // name(args) → name args
  s = s.replace(/^([a-z_]+)\((.*)\)$/i, '$1 $2');
  const toks = tokens(s);
  const name = toks.shift()?.toLowerCase();
  if (!name || !NAME.test(name) || (known && !known.has(name))) return undefined;
  const c: ToolCall = { name, args: {}, words: [] };
  for (const t of toks) {
    if (t.startsWith('[')) {
      const b = parseBox(t);
      if (!b) return undefined;
      if (!c.box) c.box = b;
      continue;
    }
    const kv = t.match(/^([a-z_][\w-]*)=(.*)$/i);
    if (kv) c.args[(kv[1] as string).toLowerCase()] = unquote(kv[2] as string);
    else c.words.push(unquote(t));
  }
  return c;
}

/** The text of `<answer>…</answer>` (the last one), or undefined. */
export function parseAnswer(s: string): string | undefined {
  const all = [...s.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)];
  const last = all[all.length - 1];
  return last ? (last[1] as string).trim() : undefined;
}
