// A typed edit applied to a pipeline program: every candidate of the offline agent is a list of typed edits, and this
// is how a list becomes files — for the parent it was chosen for, or for another node (an edit that helped elsewhere,
// carried over: extend.ts). Each edit is restated against the program it lands on (its `from` is what that program
// had), and an edit that does not apply (a stage to tune that the program lacks) makes the whole list not apply.
import type { Edit, ProgramFiles } from '../types.ts';
import { configLeaves, editConfig } from './config-edit.ts';
import { defaultText, insertionIndex, phaseOf, STAGES, storeDefault } from './stage-catalogue.ts';
import { readPipeline, type StageCall, withOption, writeStages, writeStoreOption } from './stage-edit.ts';

export interface Applied {
  files: ProgramFiles;
  /** The edits as they landed: `from` is what this program had. */
  edits: Edit[];
}

const FUSES = new Set(['rrfFuse', 'weightedFuse', 'maxFuse']);

/** A value as source text of a call's option or a store option. */
export function sourceOf(value: number | boolean | string): string {
  return typeof value === 'string' ? value : String(value);
}

/** A literal's source text as the typed value an edit carries (numbers and booleans typed; anything else as text). */
export function valueOf(text: string): number | boolean | string {
  if (text === 'true' || text === 'false') return text === 'true';
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
}

function insertAt(stages: StageCall[], text: string, name: string): string[] {
  const next = stages.map((s) => s.text);
  next.splice(insertionIndex(stages, phaseOf({ name, text, options: {} })), 0, text);
  return next;
}

/** One edit applied; undefined when it does not apply to this program. */
function applyOne(files: ProgramFiles, e: Edit): Applied | undefined {
  if (e.kind === 'config') {
    const leaf = configLeaves(files).find((l) => l.path === e.key);
    if (!leaf || leaf.value === e.to) return undefined;
    return { files: editConfig(files, { [e.key]: e.to }), edits: [{ ...e, from: leaf.value }] };
  }
  const pipeline = readPipeline(files);
  if (!pipeline) return undefined;
  const texts = pipeline.stages.map((s) => s.text);
  const has = (name: string) => pipeline.stages.findIndex((s) => s.name === name);
  switch (e.kind) {
    case 'stage-insert': {
      if (has(e.key) >= 0) return undefined;
      return { files: writeStages(files, insertAt(pipeline.stages, String(e.to), e.key)), edits: [e] };
    }
    case 'stage-remove': {
      const i = has(e.key);
      if (i < 0) return undefined;
      return { files: writeStages(files, texts.filter((_, j) => j !== i)), edits: [{ ...e, from: texts[i] as string }] };
    }
    case 'stage-swap': {
      const i = pipeline.stages.findIndex((s) => FUSES.has(s.name));
      if (i < 0 || pipeline.stages[i]?.name === e.key) return undefined;
      return { files: writeStages(files, texts.map((t, j) => (j === i ? String(e.to) : t))), edits: [{ ...e, from: texts[i] as string }] };
    }
    case 'stage-tune': {
      const [name, option] = e.key.split('.') as [string, string | undefined];
      const i = has(name);
      const s = pipeline.stages[i];
      if (!s || !option) return undefined;
      const t = STAGES[name]?.options[option];
      const current = s.options[option] ?? (t ? defaultText(t) : undefined) ?? '';
      const to = sourceOf(e.to);
      if (current === to) return undefined;
      return { files: writeStages(files, texts.map((x, j) => (j === i ? withOption(s, option, to) : x))), edits: [{ ...e, from: valueOf(current) }] };
    }
    case 'store': {
      const current = pipeline.store[e.key] ?? storeDefault(e.key) ?? '';
      const to = sourceOf(e.to);
      if (current.replace(/"/g, "'") === to.replace(/"/g, "'")) return undefined;
      return { files: writeStoreOption(files, e.key, to), edits: [{ ...e, from: current }] };
    }
    case 'route': {
      const text = `routeByKind({ ${e.key}: [${String(e.to)}] })`;
      if (texts.includes(text)) return undefined;
      return { files: writeStages(files, insertAt(pipeline.stages, text, 'routeByKind')), edits: [e] };
    }
    case 'crossover-stage': {
      const i = e.key === 'routeByKind' ? -1 : has(e.key);
      const to = String(e.to);
      if (texts.includes(to)) return undefined;
      const next = i >= 0 ? texts.map((t, j) => (j === i ? to : t)) : insertAt(pipeline.stages, to, e.key);
      return { files: writeStages(files, next), edits: [{ ...e, from: i >= 0 ? (texts[i] as string) : '' }] };
    }
    case 'crossover-design':
      // A marker: the store edits after it carry the change.
      return { files, edits: [e] };
    default:
      return undefined;
  }
}

/** A list of edits applied in order; undefined when any does not apply or the program ends unchanged. */
export function applyEdits(files: ProgramFiles, edits: readonly Edit[]): Applied | undefined {
  let current = files;
  const landed: Edit[] = [];
  for (const e of edits) {
    let applied: Applied | undefined;
    try {
      applied = applyOne(current, e);
    } catch {
      return undefined;
    }
    if (!applied) return undefined;
    current = applied.files;
    landed.push(...applied.edits);
  }
  if (Object.keys(current).every((f) => current[f] === files[f]) && Object.keys(files).length === Object.keys(current).length) return undefined;
  return { files: current, edits: landed };
}
