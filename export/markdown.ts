// Values put into the package's Markdown (README.md) come from a run folder anyone can edit, from a model (a node's
// description) and from the user's settings (model names): each is escaped for where it lands. In running text it
// can open no HTML tag and no Markdown syntax; in a code span or a fenced block it can close neither (no backtick,
// no line break); in a table row it can open no cell. A renderer then shows the value as text, whatever it holds.

// Control characters are exactly what this must match: a line break or a NUL in a value would end its line.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/** For running text: HTML-significant characters as entities, Markdown punctuation behind a backslash, one line. */
export function markdownText(value: string): string {
  return value
    .replace(CONTROL, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]{}()#+!|~]/g, '\\$&');
}

/** For inside a code span or a fenced block: shown as typed, except what would end the code (a backtick, a line break). */
export function markdownCode(value: string, inTableRow: boolean): string {
  const one = value.replace(CONTROL, ' ').replace(/`/g, "'");
  return inTableRow ? one.replace(/\|/g, '\\|') : one;
}

/**
 * Fills {{name}} placeholders of a Markdown template, each value escaped for its place (text, code span, fenced
 * block, table row). `raw` names values that are Markdown already (made by this function from another template).
 * A placeholder without a value is an error, not an empty string.
 */
export function fillMarkdown(template: string, values: Record<string, string | number>, raw: ReadonlySet<string> = new Set()): string {
  const value = (name: string): string => {
    if (!(name in values)) throw new Error(`template placeholder {{${name}}} has no value`);
    return String(values[name]);
  };
  const fill = (text: string, escape: (v: string) => string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => (raw.has(name) ? value(name) : escape(value(name))));
  let inFence = false;
  return template
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence;
        return line;
      }
      if (inFence) return fill(line, (v) => markdownCode(v, false));
      const tableRow = line.trimStart().startsWith('|');
      // Between backticks is a code span: odd pieces of the split.
      return line
        .split('`')
        .map((piece, i) => (i % 2 === 1 ? fill(piece, (v) => markdownCode(v, tableRow)) : fill(piece, markdownText)))
        .join('`');
    })
    .join('\n');
}
