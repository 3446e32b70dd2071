// Saved vector indices are checked before hnswlib reads them. A real index is written by the store, then tampered
// with as an attacker would (huge max_elements, a neighbour id past the end, a cut file, more elements than room,
// another dimension in vectors.json); each is loaded IN A CHILD PROCESS, so a check that lets one through shows as
// a crashed child (a failed test) rather than a dead test worker.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../foundation/paths.ts';
import { HNSW_HEADER_BYTES } from '../../../sandbox/primitives/hnsw-file.ts';
import { DEFAULT_QUOTAS } from '../../../sandbox/primitives/quotas.ts';
import { type SavedVectors, VectorStore } from '../../../sandbox/primitives/vectors.ts';

const work = mkdtempSync(join(tmpdir(), 'hnsw-file-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const DIM = 3;
/** Bytes of one level-0 record with M = 16: list header, 32 neighbour ids, the vector, the label. */
const RECORD = 4 + 4 * 32 + 4 * DIM + 8;
const ELEMENTS = 120;

/** A real index: 120 vectors, two removed, some tagged; and an empty one. */
function writeReal(dir: string): SavedVectors {
  mkdirSync(dir, { recursive: true });
  const vs = new VectorStore(DEFAULT_QUOTAS);
  const { handle } = vs.create(DIM, 'cosine', 16);
  vs.add(handle, Array.from({ length: ELEMENTS }, (_, i) => ({ label: 1000 + i, vector: [Math.cos(i / 7), Math.sin(i / 7), (i % 5) / 5], ...(i % 10 === 0 ? { tags: ['ten'] } : {}) })));
  vs.remove(handle, 1003);
  vs.remove(handle, 1050);
  vs.create(DIM, 'l2', 8);
  return vs.save(dir);
}

interface Loaded {
  ok?: boolean;
  error?: string;
  hits?: number[][];
  /** Set when the child died during this case. */
  crashed?: string;
}

/**
 * Loads each case's saved vectors in one child process, one after the other, and searches each index. A case the
 * child printed nothing for is the one that crashed it (the rest never ran).
 */
function loadInChild(cases: { name: string; dir: string; saved: SavedVectors }[]): Promise<Map<string, Loaded>> {
  const casesFile = join(work, `cases-${cases[0]?.name}.json`);
  writeFileSync(casesFile, JSON.stringify(cases));
  const script = join(repoRoot, 'test', 'sandbox', 'primitives', 'fixtures', 'load-saved-vectors.ts');
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, casesFile], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (code, signal) => {
      const results = new Map<string, Loaded>();
      for (const line of out.split('\n').filter(Boolean)) {
        const { name, ...rest } = JSON.parse(line) as Loaded & { name: string };
        results.set(name, rest);
      }
      const died = cases.find((c) => !results.has(c.name));
      if (died) results.set(died.name, { crashed: `exit ${code} signal ${signal}: ${err.slice(-500)}` });
      done(results);
    });
  });
}

/** A copy of the real index's folder whose first index file is changed by `tamper`. */
function tampered(name: string, tamper: (file: Buffer) => Buffer): string {
  const dir = join(work, name);
  mkdirSync(dir);
  for (const h of [1, 2]) copyFileSync(join(work, 'real', `${h}.hnsw`), join(dir, `${h}.hnsw`));
  writeFileSync(join(dir, '1.hnsw'), tamper(readFileSync(join(dir, '1.hnsw'))));
  return dir;
}

const real = writeReal(join(work, 'real'));

describe('saved vector index files', () => {
  it('loads every index the store writes (deleted elements, tags, an empty index) and searches it as before', async () => {
    const before = new VectorStore(DEFAULT_QUOTAS);
    before.load(join(work, 'real'), real);
    const query = [1, 0.2, 0.4];
    const fresh = new VectorStore(DEFAULT_QUOTAS);
    const { handle } = fresh.create(DIM, 'cosine', 16);
    fresh.add(handle, Array.from({ length: ELEMENTS }, (_, i) => ({ label: 1000 + i, vector: [Math.cos(i / 7), Math.sin(i / 7), (i % 5) / 5], ...(i % 10 === 0 ? { tags: ['ten'] } : {}) })));
    fresh.remove(handle, 1003);
    fresh.remove(handle, 1050);
    expect(before.search(1, query, 10)).toEqual(fresh.search(handle, query, 10));
    expect(before.search(1, query, 3, { anyTags: ['ten'] }).map((h) => h.label)).toEqual(fresh.search(handle, query, 3, { anyTags: ['ten'] }).map((h) => h.label));
    expect(before.size(1)).toBe(ELEMENTS - 2);
    // A removed label comes back, and the empty index (which hnswlib reads back with room for nothing) takes vectors.
    before.add(1, [{ label: 1003, vector: query }]);
    expect(before.search(1, query, 1)[0]?.label).toBe(1003);
    before.add(2, Array.from({ length: 8 }, (_, i) => ({ label: i, vector: [i, 0, 1] })));
    expect(before.search(2, [3, 0, 1], 1)[0]?.label).toBe(3);

    // An empty index saved after hnswlib read it back (room for nothing, as files written before this fix hold).
    const roomless = tampered('roomless', (b) => b);
    const empty = readFileSync(join(roomless, '2.hnsw'));
    empty.writeBigUInt64LE(0n, 8);
    writeFileSync(join(roomless, '2.hnsw'), empty);
    const reloaded = new VectorStore(DEFAULT_QUOTAS);
    reloaded.load(roomless, real);
    reloaded.add(2, [{ label: 1, vector: [1, 0, 0] }]);
    expect(reloaded.size(2)).toBe(1);

    // Saved again after all that, it loads again: in a child, as the crafted files below.
    const again = join(work, 'again');
    mkdirSync(again);
    const loaded = (await loadInChild([{ name: 'again', dir: again, saved: before.save(again) }])).get('again') ?? {};
    expect(loaded.crashed).toBeUndefined();
    expect(loaded.ok).toBe(true);
    expect(loaded.hits?.[1]).toHaveLength(5);
  });

  it('refuses crafted files with the file and the field named, and never crashes', async () => {
    const cases: { name: string; dir: string; saved: SavedVectors; expected: RegExp }[] = [];
    const add = (name: string, tamper: (b: Buffer) => Buffer, saved: SavedVectors, expected: RegExp) => cases.push({ name, dir: tampered(name, tamper), saved, expected });

    // A header claiming 2^62 slots: hnswlib sizes a std::vector by it and aborts.
    add(
      'huge-max',
      (b) => {
        const h = Buffer.from(b.subarray(0, HNSW_HEADER_BYTES));
        h.writeBigUInt64LE(2n ** 62n, 8);
        h.writeBigUInt64LE(1n, 16);
        h.writeBigUInt64LE(0n, 24);
        return Buffer.concat([h, Buffer.alloc(4)]);
      },
      real,
      /1\.hnsw: .*(max_elements is 4611686018427387904|size_data_per_element 0)/,
    );
    // A neighbour id far past the end in every level-0 list: the first search would read foreign memory.
    add(
      'bad-neighbour',
      (b) => {
        for (let i = 0; i < ELEMENTS; i++) if ((b.readUInt32LE(HNSW_HEADER_BYTES + i * RECORD) & 0xffff) > 0) b.writeUInt32LE(2 ** 31 - 1, HNSW_HEADER_BYTES + i * RECORD + 4);
        return b;
      },
      real,
      new RegExp(`1\\.hnsw: neighbour 0 of element 0 is 2147483647 but the index holds ${ELEMENTS} elements`),
    );
    add('truncated', (b) => b.subarray(0, b.length - 10), real, /1\.hnsw: truncated/);
    add('truncated-header', (b) => b.subarray(0, 50), real, /1\.hnsw: truncated: 50 bytes, shorter than the 96-byte header/);
    add(
      'count-over-max',
      (b) => {
        b.writeBigUInt64LE(BigInt(b.readBigUInt64LE(8)) + 1n, 16);
        return b;
      },
      real,
      /1\.hnsw: cur_element_count is 121, more than the capacity 120 vectors\.json gives/,
    );
    // vectors.json says 4096-d; the file holds 3-d vectors (hnswlib would read 16 KiB per element from 152 bytes).
    const wide = structuredClone(real);
    (wide.indices[0] as { dim: number }).dim = 4096;
    add('wrong-dim', (b) => b, wide, /1\.hnsw: holds 3-d vectors \(size_data_per_element 152\) but vectors\.json gives dim 4096/);
    // vectors.json and the file disagree on what is deleted.
    const undeleted = structuredClone(real);
    const first = undeleted.indices[0] as { live: number[]; deleted: number[] };
    first.live.push(...first.deleted);
    first.deleted = [];
    add('deleted-mismatch', (b) => b, undeleted, /1\.hnsw: element \d+ \(label 10(03|50)\) is marked deleted but vectors\.json has it live/);
    // A link list header claiming 60000 neighbours.
    add(
      'long-list',
      (b) => {
        b.writeUInt16LE(60_000, HNSW_HEADER_BYTES + 17 * RECORD);
        return b;
      },
      real,
      /1\.hnsw: element 17 has 60000 level-0 neighbours \(at most 32\)/,
    );

    const results = await loadInChild(cases);
    for (const { name, expected } of cases) {
      const r = results.get(name) ?? { crashed: 'not run: an earlier case crashed the child' };
      expect({ name, crashed: r.crashed }).toEqual({ name, crashed: undefined });
      expect({ name, ok: r.ok }).toEqual({ name, ok: false });
      expect(r.error, name).toMatch(expected);
    }
  }, 120_000);

  it('refuses saved vector records that break their own rules or the quotas', () => {
    const dir = join(work, 'real');
    const bad = (change: (s: SavedVectors) => void) => {
      const s = structuredClone(real);
      change(s);
      return () => new VectorStore(DEFAULT_QUOTAS).load(dir, s, 'vectors.json');
    };
    expect(bad((s) => (s.indices[0]!.deleted = [1000]))).toThrow('vectors.json: index 1: label 1000 is both live and deleted');
    expect(bad((s) => (s.indices[0]!.tags = [[5, ['x']]]))).toThrow('vectors.json: index 1: tags name label 5, which is not live');
    expect(bad((s) => (s.nextHandle = 2))).toThrow('vectors.json: index 2: its handle is not below nextHandle 2');
    expect(bad((s) => (s.indices[0]!.capacity = 10))).toThrow('vectors.json: index 1: 120 labels exceed its capacity 10');
    expect(bad((s) => (s.indices[1]!.handle = 1))).toThrow('vectors.json: index 1: listed twice');
    expect(() => new VectorStore({ ...DEFAULT_QUOTAS, vectorDimMax: 2 }).load(dir, real, 'vectors.json')).toThrow(/quota vectorDimMax exceeded: vectors\.json: index 1 has dimension 3/);
    expect(() => new VectorStore({ ...DEFAULT_QUOTAS, vectorBytes: 1000 }).load(dir, real, 'vectors.json')).toThrow(/quota vectorBytes exceeded: vectors\.json/);
    const missing = join(work, 'missing');
    mkdirSync(missing);
    expect(() => new VectorStore(DEFAULT_QUOTAS).load(missing, real)).toThrow(`${join(missing, '1.hnsw')}: missing`);
  });
});
