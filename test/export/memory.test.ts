// The runtime of an exported memory, in process: update/retrieve outside a benchmark, save, and both ways of
// restoring (snapshot for a program that has snapshot()/restore(), replay of the logged episodes otherwise).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileProgram, type CompiledProgram } from '../../sandbox/compile.ts';
import { type MemorySetup, openMemory } from '../../export/runtime/memory.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'export-memory-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function setup(fixture: string, builtIn: string | null = null): Promise<MemorySetup> {
  const r = await compileProgram({ entryPath: new URL(`./fixtures/${fixture}.ts`, import.meta.url).pathname });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { program: r.program as CompiledProgram, node: fixture, env: 'toy', budget: { maxChars: 1000, maxImages: 2 }, seed: 3, builtIn };
}

const episode = (i: number) => ({ taskId: `t${i}`, instruction: `task number ${i}`, steps: [{ action: `do ${i}` }], outcome: { reward: i / 10, success: true } });

describe('exported memory runtime', () => {
  it('restores a program with snapshot(): kv, vectors and its snapshot, no replay', async () => {
    const s = await setup('snapshot-notes');
    const dir = join(tmp(), 'mem');
    const first = await openMemory(s, { fresh: true });
    expect(first.restored.mode).toBe('fresh');
    for (const i of [1, 2, 3]) await first.update(episode(i), { time: Date.UTC(2024, 0, i) });
    const before = await first.retrieve({ taskId: 'q', instruction: 'anything' });
    expect(before.text).toBe('notes: task number 1 | task number 2 | task number 3; kv: ep:t1,ep:t2,ep:t3; nearest: 0');
    expect((await first.retrieve({ taskId: 'q', instruction: 'long' })).truncated).toBe(true);
    await first.save(dir);
    await first.close();
    await expect(first.retrieve({ taskId: 'q', instruction: 'x' })).rejects.toThrow('closed');

    const manifest = JSON.parse(readFileSync(join(dir, 'memory.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'automemo-memory/1', restore: 'snapshot', episodes: 3, program: { node: 'snapshot-notes', hash: s.program.hash } });
    const again = await openMemory(s, { memoryDir: dir });
    expect(again.restored).toMatchObject({ mode: 'snapshot', from: dir, episodes: 3 });
    expect((await again.retrieve({ taskId: 'q', instruction: 'anything' })).text).toBe(before.text);
    const stats = await again.stats();
    expect(stats).toMatchObject({ episodes: 3, added: 0, kv: { keys: 3 }, vectors: [{ handle: 1, size: 3 }] });
    await again.close();

    // rebuild: replay instead, which must reach the same state.
    const rebuilt = await openMemory(s, { memoryDir: dir, rebuild: true });
    expect(rebuilt.restored).toMatchObject({ mode: 'replay', verified: true, episodes: 3 });
    expect((await rebuilt.retrieve({ taskId: 'q', instruction: 'anything' })).text).toBe(before.text);
    await rebuilt.close();
  });

  it('rebuilds a program without snapshot() by replaying its episodes at their times, and checks the result', async () => {
    const built = join(tmp(), 'built');
    const s = await setup('replay-notes');
    const m = await openMemory(s, { fresh: true });
    await m.update(episode(1), { time: 1000 });
    await m.update(episode(2), { time: 5000 });
    const text = (await m.retrieve({ taskId: 'q', instruction: 'q' })).text;
    expect(text).toBe('task number 1 @1000\ntask number 2 @5000');
    await m.save(built);
    await m.close();

    // The built-in memory (the package's memory/) is used when memoryDir holds none; save() then writes memoryDir.
    const own = join(tmp(), 'own');
    const fromPackage = await openMemory({ ...s, builtIn: built }, { memoryDir: own });
    expect(fromPackage.restored).toMatchObject({ mode: 'replay', from: built, episodes: 2, verified: true });
    expect((await fromPackage.retrieve({ taskId: 'q', instruction: 'q' })).text).toBe(text);
    await fromPackage.update(episode(3), { time: 9000 });
    expect(await fromPackage.save()).toBe(own);
    await fromPackage.close();

    const resumed = await openMemory({ ...s, builtIn: built }, { memoryDir: own });
    expect(resumed.restored).toMatchObject({ mode: 'replay', from: own, episodes: 3, verified: true });
    expect((await resumed.retrieve({ taskId: 'q', instruction: 'q' })).text).toBe(`${text}\ntask number 3 @9000`);
    await resumed.close();

    const fresh = await openMemory({ ...s, builtIn: built }, { fresh: true });
    expect((await fresh.retrieve({ taskId: 'q', instruction: 'q' })).text).toBe('');
    await fresh.close();
  });

  it('refuses a memory of another program, bad options and bad inputs, naming the problem', async () => {
    const dir = join(tmp(), 'mem');
    const replayNotes = await setup('replay-notes');
    const m = await openMemory(replayNotes, { fresh: true });
    await m.update(episode(1));
    await m.save(dir);
    await expect(m.update({ taskId: 't', instruction: 'no outcome' } as never)).rejects.toThrow(/update\(episode\)[\s\S]*outcome/);
    await expect(m.retrieve({ instruction: 'no id' } as never)).rejects.toThrow(/retrieve\(task\)[\s\S]*taskId/);
    await expect(m.update({ ...episode(2), initial: { images: [{ id: 'img_nope', mime: 'image/png' }] } })).rejects.toThrow('unknown image id "img_nope"');
    // The memory still works after refused calls.
    expect((await m.retrieve({ taskId: 'q', instruction: 'q' })).text).toContain('task number 1');
    await m.close();
    await expect(openMemory(await setup('snapshot-notes'), { memoryDir: dir })).rejects.toThrow(/holds a memory of program replay-notes .* this package runs snapshot-notes/);
    await expect(openMemory(replayNotes, { limits: { heapMb: 1 } } as never)).rejects.toThrow(/createMemory\(options\)[\s\S]*heapMb/);
    await expect(openMemory(replayNotes, { colour: 'blue' } as never)).rejects.toThrow(/colour/);
  });
});
