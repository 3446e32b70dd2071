// The index.d.ts an exported package ships is emitted from the runtime's source by TypeScript's checker. The checked-in
// copy (export/generated/index.d.ts, which the export copies) must be what the emitter writes now, so a
// change of the runtime's types that is not regenerated fails here:
//   npx vitest run test/export/declarations.test.ts -u     rewrites it.
// The text must stand alone: a strict consumer that has nothing else installed type-checks against it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitDeclarations, PACKAGE_TYPES } from '../../export/declarations.ts';

let emitted = '';
beforeAll(() => {
  emitted = emitDeclarations();
}, 120_000);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A consumer of the package, with the strictest settings a user may have. Each @ts-expect-error must be an error. */
const CONSUMER = `import { about, createMemory, type EpisodeInput, type Json, type Retrieved } from './index.js';
const memory = await createMemory({ memoryDir: 'm', models: { memo: null, embedding: { model: 'e', baseURL: 'http://127.0.0.1:1/v1' } }, quotas: { kvBytes: 1 }, onLog: (line) => void line.length });
const episode: EpisodeInput = { taskId: 'e', instruction: 'x', steps: [{ action: 'a', observation: { images: [{ data: 'AA==', mime: 'image/png' }] } }], outcome: { reward: 1, success: true } };
await memory.update(episode, { time: 0 });
const r: Retrieved = await memory.retrieve({ taskId: 't', instruction: 'x', initial: { images: [{ id: 'img', mime: 'image/png' }] } });
export const meta: Json | undefined = r.metadata;
export const bytes: number | undefined = memory.image(r.images[0]?.id ?? '')?.bytes.byteLength;
const stats = await memory.stats();
export const used: number = stats.usage.kvBytes + (stats.usage.primitives['embed']?.calls ?? 0);
export const alive: boolean = memory.alive;
export const mode: 'fresh' | 'snapshot' | 'replay' = memory.restored.mode;
export const hash: string = about().program.hash;
export const chosen: 'final' | 'lcb' | 'node' = about().node.chosenBy;
await memory.save();
await memory.close();
// @ts-expect-error memoryDir is a folder's path
await createMemory({ memoryDir: 1 });
// @ts-expect-error an option createMemory does not take
await createMemory({ memoryFolder: 'm' });
// @ts-expect-error an episode has an outcome
await memory.update({ taskId: 'e', instruction: 'x' });
// @ts-expect-error the mode is one of three
export const fresh: 'fresh' = memory.restored.mode;
`;

/** Diagnostics of the consumer and the declarations in a folder of their own, with TypeScript's lib only (no @types). */
function check(declarations: string, consumer: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'package-types-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'index.d.ts'), declarations);
  writeFileSync(join(dir, 'consumer.ts'), consumer);
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const program = ts.createProgram([join(dir, 'consumer.ts')], options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${d.file ? basename(d.file.fileName) : ''}${at ? `:${at.line + 1}` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

describe("the exported package's index.d.ts", () => {
  it('is checked in as the emitter writes it from the runtime (regenerate with -u)', async () => {
    await expect(emitted).toMatchFileSnapshot(PACKAGE_TYPES);
  });

  it('stands alone: a strict consumer with no @types and nothing installed type-checks against it', () => {
    expect(check(emitted, CONSUMER)).toEqual([]);
    // The consumer can fail: a misuse the declarations must refuse is reported.
    expect(check(emitted, `${CONSUMER}await createMemory({ seed: 'one' });\n`)).toEqual([expect.stringMatching(/^consumer\.ts:\d+: Type 'string' is not assignable to type 'number'/)]);
  });

  it('publishes what the runtime does: the internal helpers stay out, Buffer is a Uint8Array, zod and Node types never appear', () => {
    expect(emitted).not.toMatch(/packageSetup|packageRoot|MemorySetup|:\s*Buffer\b|zod|Zod|import\(|from '/);
    expect(emitted).toContain('export declare function createMemory(options?: MemoryOptions): Promise<Memory>;');
    expect(emitted).toContain('image(id: string): { ref: ImageRef; bytes: Uint8Array } | undefined;');
  });

  it('refuses a public type that only a dependency declares, naming where it is used', () => {
    expect(() => emitDeclarations(join(import.meta.dirname, 'fixtures', 'leaky-entry.ts'))).toThrow(
      /^Leaky\.stream: Readable is declared in @types\/node\/stream\.d\.ts, which the package's user may not have/,
    );
  }, 60_000);
});
