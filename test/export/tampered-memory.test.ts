// A saved memory is checked completely when it is opened: a tampered file is refused there, with the file and the
// field named, instead of opening and failing at the first retrieve (or reading outside the folder, or blocking on
// a pipe). Each case copies a real saved memory and changes one thing, as someone with write access to it could.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProgram, type CompiledProgram } from '../../sandbox/compile.ts';
import { type MemorySetup, openMemory } from '../../export/runtime/memory.ts';
import { readFileBounded } from '../../export/runtime/read-bounded.ts';

const work = mkdtempSync(join(tmpdir(), 'tampered-memory-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const setups: Record<'snapshot' | 'replay', MemorySetup> = {} as never;
const saved = { snapshot: join(work, 'snapshot'), replay: join(work, 'replay') };
const ask = { taskId: 'q', instruction: 'anything' };

beforeAll(async () => {
  const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#00ff00' } })
    .png()
    .toBuffer();
  for (const [kind, fixture] of [
    ['snapshot', 'snapshot-notes'],
    ['replay', 'replay-notes'],
  ] as const) {
    const r = await compileProgram({ entryPath: new URL(`./fixtures/${fixture}.ts`, import.meta.url).pathname });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    setups[kind] = {
      program: r.program as CompiledProgram,
      node: fixture,
      env: 'toy',
      budget: { maxChars: 1000, maxImages: 2 },
      seed: 3,
      builtIn: null,
    };
    const m = await openMemory(setups[kind], { fresh: true });
    for (const i of [1, 2, 3]) {
      await m.update(
        {
          taskId: `t${i}`,
          instruction: `task number ${i}`,
          initial: i === 2 ? { images: [{ data: png.toString('base64'), mime: 'image/png' }] } : {},
          outcome: { reward: 1, success: true },
        },
        { time: 1000 * i },
      );
    }
    await m.save(saved[kind]);
    await m.close();
  }
});

/** A copy of a saved memory with one thing changed. */
function tamper(kind: 'snapshot' | 'replay', name: string, change: (dir: string) => void): string {
  const dir = join(work, name);
  cpSync(saved[kind], dir, { recursive: true });
  change(dir);
  return dir;
}

const editJson = (file: string, edit: (value: never) => unknown) =>
  writeFileSync(file, JSON.stringify(edit(JSON.parse(readFileSync(file, 'utf8')) as never)));

describe('a tampered memory', () => {
  it('opens untampered, in both restore modes', async () => {
    for (const kind of ['snapshot', 'replay'] as const) {
      const m = await openMemory(setups[kind], { memoryDir: tamper(kind, `untouched-${kind}`, () => undefined) });
      expect(m.restored).toMatchObject({ mode: kind, episodes: 3 });
      expect((await m.retrieve(ask)).text).toContain('task number 3');
      await m.close();
    }
  });

  it('with dim 4096 in vectors.json is refused when opened, naming the index file and both dimensions', async () => {
    for (const kind of ['snapshot', 'replay'] as const) {
      const dir = tamper(kind, `dim-${kind}`, (d) =>
        editJson(join(d, 'vectors.json'), (v: { indices: { dim: number }[] }) => ({
          ...v,
          indices: v.indices.map((x) => ({ ...x, dim: 4096 })),
        })),
      );
      const dim = kind === 'snapshot' ? 3 : 2;
      await expect(openMemory(setups[kind], { memoryDir: dir })).rejects.toThrow(
        `${join(dir, 'vectors', '1.hnsw')}: holds ${dim}-d vectors (size_data_per_element ${4 + 128 + 4 * dim + 8}) but vectors.json gives dim 4096`,
      );
    }
  });

  it('is refused for each file it breaks, with the file and the field named', async () => {
    const cases: [string, (dir: string) => void, (dir: string) => string | RegExp][] = [
      [
        'episode-not-json',
        (d) =>
          writeFileSync(
            join(d, 'episodes.jsonl'),
            readFileSync(join(d, 'episodes.jsonl'), 'utf8').replace(/^.*\n/, '{oops\n'),
          ),
        (d) => `${join(d, 'episodes.jsonl')}: line 1: a logged episode is not JSON`,
      ],
      [
        'episode-extra',
        (d) =>
          writeFileSync(
            join(d, 'episodes.jsonl'),
            `${readFileSync(join(d, 'episodes.jsonl'), 'utf8')}${readFileSync(join(d, 'episodes.jsonl'), 'utf8').split('\n')[0]}\n`,
          ),
        (d) => `${join(d, 'episodes.jsonl')}: holds 4 lines, memory.json says 3 episodes`,
      ],
      [
        'episode-shape',
        (d) =>
          writeFileSync(
            join(d, 'episodes.jsonl'),
            readFileSync(join(d, 'episodes.jsonl'), 'utf8').replace('"reward":1', '"reward":7'),
          ),
        (d) => new RegExp(`${join(d, 'episodes.jsonl')}: line 1: not a logged episode:[\\s\\S]*reward`),
      ],
      [
        'image-path',
        (d) =>
          editJson(join(d, 'images.json'), (refs: { id: string }[]) =>
            refs.map((r) => ({ ...r, id: '../../../../etc/passwd' })),
          ),
        (d) => new RegExp(`${join(d, 'images.json')}: not image references:[\\s\\S]*img_ and 16 hex digits`),
      ],
      [
        'image-bytes',
        (d) =>
          writeFileSync(
            join(d, 'images', JSON.parse(readFileSync(join(d, 'images.json'), 'utf8'))[0].id),
            'not the image',
          ),
        () => /images\/img_[0-9a-f]{16}: its bytes are not the image its name says/,
      ],
      [
        'kv-link',
        (d) => (unlinkSync(join(d, 'kv.json')), symlinkSync('/etc/hostname', join(d, 'kv.json'))),
        (d) => `${join(d, 'kv.json')}: is a symbolic link; refused`,
      ],
      [
        'kv-value',
        (d) => editJson(join(d, 'kv.json'), (kv: [string, string][]) => kv.map(([k]) => [k, '0.5'])),
        (d) => `${d}: not the files saved together: the entries of kv.json are not those memory.json records`,
      ],
      [
        'snapshot-deep',
        (d) => writeFileSync(join(d, 'snapshot.json'), `${'['.repeat(5000)}${']'.repeat(5000)}`),
        (d) => `${join(d, 'snapshot.json')}: the program's snapshot nests deeper than 1000 levels`,
      ],
      [
        'episodes-fifo',
        (d) => {
          unlinkSync(join(d, 'episodes.jsonl'));
          spawnSync('mkfifo', [join(d, 'episodes.jsonl')]);
        },
        (d) => `${join(d, 'episodes.jsonl')}: not a regular file`,
      ],
      [
        'manifest',
        (d) => editJson(join(d, 'memory.json'), (m: object) => ({ ...m, format: 'automemo-memory/9' })),
        (d) => `${join(d, 'memory.json')}: not a memory manifest (automemo-memory/1)`,
      ],
    ];
    const failure = (p: Promise<{ close(): Promise<void> }>) =>
      p.then(
        async (m) => void (await m.close()),
        (e: Error) => e.message,
      );
    for (const [name, change, expected] of cases) {
      const dir = tamper('snapshot', name, change);
      // As the package's own memory (read, never written)...
      const err = await failure(openMemory({ ...setups.snapshot, builtIn: dir }, {}));
      const want = expected(dir);
      if (typeof want === 'string') expect(err, name).toContain(want);
      else expect(err, name).toMatch(want);
      // ...and as a memoryDir, where a link or a pipe in place of a file already makes the folder not ours.
      expect(await failure(openMemory(setups.snapshot, { memoryDir: dir })), name).toContain(dir);
    }
  }, 120_000);

  it('treats an embeddings file it cannot read safely as a cache miss, and opens', async () => {
    const dir = tamper('snapshot', 'embeddings-fifo', (d) => {
      unlinkSync(join(d, 'embeddings.jsonl'));
      spawnSync('mkfifo', [join(d, 'embeddings.jsonl')]);
    });
    const m = await openMemory({ ...setups.snapshot, builtIn: dir }, {});
    expect(m.restored.notes.join(' ')).toContain(
      `${join(dir, 'embeddings.jsonl')} is not a regular file: its texts are embedded again as needed`,
    );
    expect((await m.retrieve(ask)).text).toContain('task number 3');
    await m.close();
  });

  it('reads a file only up to its cap', () => {
    const file = join(work, 'big.json');
    writeFileSync(file, 'x'.repeat(5000));
    expect(() => readFileBounded(file, 4096)).toThrow(`${file}: 5000 bytes, over the cap of 4096 bytes`);
    expect(readFileBounded(file, 5000).length).toBe(5000);
  });
});
