// An exported memory never deletes or replaces what it did not write. A folder holding a user's file is refused by
// createMemory and by save(), and the file survives every call; so are the root, the home folder, a file and a
// link. A memory saved over an older one replaces it atomically: a save that fails midway leaves the old memory
// loadable and nothing behind, and one stopped between its two renames is put back on the next open.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProgram, type CompiledProgram } from '../../sandbox/compile.ts';
import { readMemoryDir, writeMemoryDir } from '../../export/runtime/memory-dir.ts';
import { type MemorySetup, openMemory } from '../../export/runtime/memory.ts';

const work = mkdtempSync(join(tmpdir(), 'memory-folder-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let setup: MemorySetup;
/** A memory of the replay-notes fixture with two episodes, saved by the runtime: the package's memory/. */
const builtIn = join(work, 'built-in');
const episode = (i: number) => ({ taskId: `t${i}`, instruction: `task number ${i}`, steps: [{ action: `do ${i}` }], outcome: { reward: 1, success: true } });
const ask = { taskId: 'q', instruction: 'q' };

beforeAll(async () => {
  const r = await compileProgram({ entryPath: new URL('./fixtures/replay-notes.ts', import.meta.url).pathname });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  setup = { program: r.program as CompiledProgram, node: 'replay-notes', env: 'toy', budget: { maxChars: 1000, maxImages: 2 }, seed: 3, builtIn: null };
  const m = await openMemory(setup, { fresh: true });
  await m.update(episode(1), { time: 1000 });
  await m.update(episode(2), { time: 2000 });
  await m.save(builtIn);
  await m.close();
  setup = { ...setup, builtIn };
});

/** A folder with a file of the user's in it. */
function userFolder(name: string): { dir: string; file: string } {
  const dir = join(work, name);
  mkdirSync(dir);
  const file = join(dir, 'thesis.txt');
  writeFileSync(file, 'three years of work');
  return { dir, file };
}

const intact = (file: string) => expect(readFileSync(file, 'utf8')).toBe('three years of work');

describe("an exported memory and the user's folders", () => {
  it("refuses a folder holding a user's file in createMemory and in save(), and the file survives every call", async () => {
    const { dir, file } = userFolder('user');
    await expect(openMemory(setup, { memoryDir: dir })).rejects.toThrow(new RegExp(`${dir} is not empty and holds no memory automemo wrote .*it holds thesis\\.txt.*refusing`));
    intact(file);

    // Opened elsewhere, the memory works, and saving into the user's folder is refused just the same.
    const m = await openMemory(setup, {});
    await m.update(episode(3), { time: 3000 });
    expect((await m.retrieve(ask)).text).toContain('task number 3');
    await expect(m.save(dir)).rejects.toThrow(/is not empty and holds no memory automemo wrote/);
    intact(file);
    expect(readdirSync(dir)).toEqual(['thesis.txt']);
    expect(readdirSync(work).filter((n) => n.startsWith('.user.'))).toEqual([]);

    // A folder that was missing when the memory opened, and holds a user's file by the time it saves.
    const later = join(work, 'later');
    const m2 = await openMemory(setup, { memoryDir: later });
    mkdirSync(later);
    writeFileSync(join(later, 'thesis.txt'), 'three years of work');
    await expect(m2.save()).rejects.toThrow(/later is not empty and holds no memory automemo wrote/);
    intact(join(later, 'thesis.txt'));
    // The memory is still usable, and saves where it may.
    expect(await m2.save(join(work, 'elsewhere'))).toBe(join(work, 'elsewhere'));
    await m2.close();
    await m.close();
  });

  it('refuses the root, the home folder, a file, a link, and a memory with foreign files in it', async () => {
    await expect(openMemory(setup, { memoryDir: '/' })).rejects.toThrow('/ is the root of the file system');
    await expect(openMemory(setup, { memoryDir: homedir() })).rejects.toThrow(`${homedir()} is the home folder`);
    const file = join(work, 'a-file');
    writeFileSync(file, 'x');
    await expect(openMemory(setup, { memoryDir: file })).rejects.toThrow(`${file} is a file, not a folder`);
    const { dir: target, file: thesis } = userFolder('link-target');
    const link = join(work, 'link');
    symlinkSync(target, link);
    await expect(openMemory(setup, { memoryDir: link })).rejects.toThrow(`${link} is a symbolic link`);
    intact(thesis);

    // A real memory, plus a file the user dropped into it: neither loaded as a memory to replace nor replaced.
    const mixed = join(work, 'mixed');
    const m = await openMemory(setup, { memoryDir: mixed });
    await m.save();
    writeFileSync(join(mixed, 'notes.md'), 'three years of work');
    await expect(openMemory(setup, { memoryDir: mixed })).rejects.toThrow(/mixed holds a memory but also files automemo did not write \(notes\.md\)/);
    await expect(m.save()).rejects.toThrow(/also files automemo did not write/);
    intact(join(mixed, 'notes.md'));
    expect(readMemoryDir(mixed).manifest.episodes).toBe(2);
    await m.close();
  });

  it("never saves over another program's memory", async () => {
    const r = await compileProgram({ entryPath: new URL('./fixtures/snapshot-notes.ts', import.meta.url).pathname });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const other = await openMemory({ ...setup, program: r.program as CompiledProgram, node: 'snapshot-notes', builtIn: null }, { fresh: true });
    await expect(other.save(builtIn)).rejects.toThrow(/built-in holds the memory of another program .* this one is snapshot-notes/);
    await other.close();
    expect(readMemoryDir(builtIn).manifest.program.node).toBe('replay-notes');
  });

  it('replaces a saved memory atomically: a failing write leaves the old one loadable and nothing behind', async () => {
    const dir = join(work, 'mine');
    const m = await openMemory(setup, { memoryDir: dir });
    await m.update(episode(3), { time: 3000 });
    await m.save();
    await m.close();
    const before = readMemoryDir(dir);
    expect(before.manifest.episodes).toBe(3);

    // A save that fails after writing most of the new memory (the disk filled up while writing embeddings).
    expect(() =>
      writeMemoryDir(dir, {
        ...before,
        manifest: { ...before.manifest, episodes: 0 },
        episodes: [],
        vectors: () => ({ nextHandle: 1, indices: [] }),
        embeddings: (file) => {
          writeFileSync(file, 'half a line');
          throw new Error('ENOSPC: no space left on device');
        },
      }),
    ).toThrow('ENOSPC');
    expect(readdirSync(work).filter((n) => n.startsWith('.mine.'))).toEqual([]);
    const again = await openMemory(setup, { memoryDir: dir });
    expect(again.restored).toMatchObject({ mode: 'replay', from: dir, episodes: 3, verified: true });
    expect((await again.retrieve(ask)).text).toBe('task number 1 @1000\ntask number 2 @2000\ntask number 3 @3000');

    // A save that succeeds replaces it: the new memory in place, the old one's files gone, nothing else left.
    await again.update(episode(4), { time: 4000 });
    await again.save();
    await again.close();
    expect(readMemoryDir(dir).manifest.episodes).toBe(4);
    expect(readdirSync(work).filter((n) => n.startsWith('.mine.'))).toEqual([]);
  });

  it('puts the old memory back when a save stopped between its two renames', async () => {
    const dir = join(work, 'swapped');
    const m = await openMemory(setup, { memoryDir: dir });
    await m.save();
    await m.close();
    // What a process killed after moving the old memory aside, before moving the new one in, leaves.
    renameSync(dir, join(work, `.swapped.old-99999-0a0b0c0d`));
    const back = await openMemory(setup, { memoryDir: dir });
    expect(back.restored.from).toBe(dir);
    expect(back.restored.notes.join(' ')).toContain('was missing after an interrupted save');
    expect(existsSync(join(dir, 'memory.json'))).toBe(true);
    await back.close();
  });
});
