// Prompts live in files beside the code that uses them; this reads one, relative to the caller's module.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cache = new Map<string, string>();

export function readPrompt(moduleUrl: string, relativePath: string): string {
  const path = fileURLToPath(new URL(relativePath, moduleUrl));
  let text = cache.get(path);
  if (text === undefined) {
    text = readFileSync(path, 'utf8').trimEnd();
    cache.set(path, text);
  }
  return text;
}

/** Fills {{name}} placeholders; a placeholder without a value is an error, not an empty string. */
export function fillPrompt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`prompt placeholder {{${name}}} has no value`);
    return String(values[name]);
  });
}
