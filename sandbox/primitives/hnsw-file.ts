// Checks an hnswlib index file (what VectorStore.save writes) before hnswlib reads it. hnswlib trusts its files:
// a huge max_elements aborts the process, a neighbour id past the end reads foreign memory on the first search.
// So every field is checked against the file's size, the index's record in vectors.json and the store's graph
// parameters, and every link list is walked, without ever holding the file whole.
//
// Layout (hnswlib 0.8, hnswalg.h saveIndex/loadIndex; little-endian, size_t is 8 bytes):
//   header (96 bytes): offsetLevel0 u64, max_elements u64, cur_element_count u64, size_data_per_element u64,
//     label_offset u64, offsetData u64, maxlevel i32, enterpoint_node u32, maxM u64, maxM0 u64, M u64, mult f64,
//     ef_construction u64
//   level 0, cur_element_count records of size_data_per_element bytes: a list header u32 (neighbour count in its
//     low 16 bits, the delete mark in bit 16), maxM0 neighbour ids u32, the vector (dim × f32), the label u64
//   then per element: u32 byte size of its upper levels (level × (4 + 4·maxM)), then those lists, each a header
//     u32 (count in its low 16 bits) and maxM neighbour ids u32
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export const HNSW_HEADER_BYTES = 96;
/** hnswlib draws levels as ⌊−ln(u)·mult⌋ with u a double in (0, 1): with M = 16 never above 13. */
const MAX_LEVEL = 32;
const NO_ENTRY = 0xffffffff;
const DELETE_MARK = 1 << 16;
const CHUNK = 1 << 20;

/** What the file must hold, from the index's record in vectors.json and the store's graph parameters. */
export interface HnswExpected {
  dim: number;
  /** The index's max_elements. */
  capacity: number;
  live: ReadonlySet<number>;
  deleted: ReadonlySet<number>;
  /** hnswlib's M (maxM = M, maxM0 = 2·M). */
  m: number;
  /** The largest label a program may use. */
  maxLabel: number;
}

/** A file that is not an index we could have written; the message names the file and the field. */
export class HnswFileError extends Error {
  override name = 'HnswFileError';
}

/** Sequential reads through a fixed buffer: a view of the next `n` bytes, valid until the next call. */
class Cursor {
  private buf = Buffer.alloc(CHUNK);
  private start = 0;
  private end = 0;
  /** File offset of buf[0]. */
  private base = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  get position(): number {
    return this.base + this.start;
  }

  seek(position: number): void {
    this.base = position;
    this.start = 0;
    this.end = 0;
  }

  /** Moves `n` bytes on, within the buffer when it holds them. */
  skip(n: number): void {
    if (this.end - this.start >= n) this.start += n;
    else this.seek(this.position + n);
  }

  /** undefined when the file ends first. */
  take(n: number): Buffer | undefined {
    if (this.end - this.start < n) {
      if (this.position + n > this.size) return undefined;
      const kept = this.buf.subarray(this.start, this.end);
      if (n > this.buf.length) {
        const bigger = Buffer.alloc(Math.max(n, this.buf.length * 2));
        kept.copy(bigger);
        this.buf = bigger;
      } else {
        this.buf.copy(this.buf, 0, this.start, this.end);
      }
      this.base += this.start;
      this.end -= this.start;
      this.start = 0;
      while (this.end < n) {
        const got = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.base + this.end);
        if (got === 0) return undefined;
        this.end += got;
      }
    }
    const view = this.buf.subarray(this.start, this.start + n);
    this.start += n;
    return view;
  }
}

/** A u64 as a number when it is at most `max`, else undefined (no precision is lost on the way). */
function u64(buf: Buffer, at: number, max: number): number | undefined {
  const v = buf.readBigUInt64LE(at);
  return v <= BigInt(max) ? Number(v) : undefined;
}

/** Throws HnswFileError naming `file` and the first problem; returns when hnswlib can safely load the file. */
export function checkHnswFile(file: string, want: HnswExpected): void {
  const fail = (problem: string): never => {
    throw new HnswFileError(`${file}: ${problem}`);
  };
  let fd: number;
  try {
    // Never through a link (a tampered memory could point one anywhere); non-blocking so a pipe cannot hang us.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? 'missing' : code === 'ELOOP' ? 'is a symbolic link' : `cannot be opened (${code ?? (err as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) fail('is not a regular file');
    checkOpen(new Cursor(fd, stat.size), want, fail);
  } finally {
    closeSync(fd);
  }
}

/** Byte sizes in a record, from the expected dimension and M. */
interface Layout {
  maxM: number;
  maxM0: number;
  /** A level-0 link list: header and maxM0 ids. */
  links0: number;
  /** One upper-level link list: header and maxM ids. */
  linksUpper: number;
  dataBytes: number;
  /** A level-0 record: links, vector, label. */
  recordBytes: number;
}

/** What every part of the check works with. */
interface Reading {
  cur: Cursor;
  want: HnswExpected;
  layout: Layout;
  fail: (problem: string) => never;
  /** The next `n` bytes; a file that ends first is truncated in `where`. */
  need: (n: number, where: string) => Buffer;
}

/** The graph's top as the header gives it, checked against the element count. */
interface Graph {
  count: number;
  maxLevel: number;
  entry: number;
}

function layoutOf(want: HnswExpected): Layout {
  const maxM = want.m;
  const maxM0 = 2 * want.m;
  const links0 = 4 + 4 * maxM0;
  const dataBytes = 4 * want.dim;
  return { maxM, maxM0, links0, linksUpper: 4 + 4 * maxM, dataBytes, recordBytes: links0 + dataBytes + 8 };
}

function checkOpen(cur: Cursor, want: HnswExpected, fail: (problem: string) => never): void {
  // The size was checked up front; a file cut while we read it is truncated all the same.
  const r: Reading = { cur, want, layout: layoutOf(want), fail, need: (n, where) => cur.take(n) ?? fail(`truncated in ${where}`) };
  if (cur.size < HNSW_HEADER_BYTES) fail(`truncated: ${cur.size} bytes, shorter than the ${HNSW_HEADER_BYTES}-byte header`);
  const header = r.need(HNSW_HEADER_BYTES, 'the header');
  checkParameters(header, r);
  const graph = checkGraphTop(header, r);
  const level0End = HNSW_HEADER_BYTES + graph.count * r.layout.recordBytes;
  if (cur.size < level0End + 4 * graph.count) fail(`truncated: ${cur.size} bytes, but its ${graph.count} elements need at least ${level0End + 4 * graph.count}`);
  const levels = readLevels(level0End, graph, r);
  checkLevel0(graph.count, r);
  checkUpperLevels(level0End, levels, r);
}

/** The fields fixed by the dimension and M: offsets, sizes, M, mult, ef_construction. */
function checkParameters(header: Buffer, { want, layout, fail }: Reading): void {
  const field = (name: string, at: number, expected: number) => {
    const v = header.readBigUInt64LE(at);
    if (v !== BigInt(expected)) fail(`${name} is ${v} but an index of ${want.dim}-d vectors with M = ${want.m} has ${expected}`);
  };
  field('offsetLevel0', 0, 0);
  field('maxM', 56, layout.maxM);
  field('maxM0', 64, layout.maxM0);
  field('M', 72, want.m);
  const mult = header.readDoubleLE(80);
  const wantMult = 1 / Math.log(want.m);
  if (!(Math.abs(mult - wantMult) <= 1e-9 * wantMult)) fail(`mult is ${mult} but M = ${want.m} gives ${wantMult}`);
  const efc = u64(header, 88, 10_000);
  if (efc === undefined || efc < 1) fail(`ef_construction is ${header.readBigUInt64LE(88)} (allowed 1–10000)`);
  const sizeData = header.readBigUInt64LE(24);
  if (sizeData !== BigInt(layout.recordBytes)) {
    const stored = (Number(sizeData) - layout.links0 - 8) / 4;
    const held = Number.isInteger(stored) && stored > 0 && sizeData < 2n ** 40n ? `holds ${stored}-d vectors` : 'holds no vectors we could have written';
    fail(`${held} (size_data_per_element ${sizeData}) but vectors.json gives dim ${want.dim} (${layout.recordBytes} bytes per element)`);
  }
  field('label_offset', 32, layout.links0 + layout.dataBytes);
  field('offsetData', 40, layout.links0);
}

/** Element count, capacity, maxlevel and entry point, against vectors.json and each other. */
function checkGraphTop(header: Buffer, { want, fail }: Reading): Graph {
  const count = u64(header, 16, want.capacity);
  if (count === undefined) return fail(`cur_element_count is ${header.readBigUInt64LE(16)}, more than the capacity ${want.capacity} vectors.json gives`);
  // An empty index read back by hnswlib has room for nothing, and was saved so before VectorStore.load resized it.
  const maxElements = u64(header, 8, 2 ** 32);
  if (maxElements !== want.capacity && !(count === 0 && maxElements === 0)) fail(`max_elements is ${header.readBigUInt64LE(8)} but vectors.json gives capacity ${want.capacity}`);
  const labelled = want.live.size + want.deleted.size;
  if (count !== labelled) fail(`holds ${count} elements but vectors.json lists ${want.live.size} live and ${want.deleted.size} deleted labels`);
  const maxLevel = header.readInt32LE(48);
  const entry = header.readUInt32LE(52);
  if (count === 0) {
    if (maxLevel !== -1 || entry !== NO_ENTRY) fail(`an empty index has maxlevel -1 and no entry point; this one has maxlevel ${maxLevel}, entry point ${entry}`);
  } else {
    if (maxLevel < 0 || maxLevel > MAX_LEVEL) fail(`maxlevel is ${maxLevel} (allowed 0–${MAX_LEVEL})`);
    if (entry >= count) fail(`the entry point is element ${entry} but the index holds ${count} elements`);
  }
  return { count, maxLevel, entry };
}

/** Pass 1: every element's level, from the sizes of its upper link lists (needed to check upper neighbours). */
function readLevels(level0End: number, { count, maxLevel, entry }: Graph, { cur, layout, fail, need }: Reading): Uint8Array {
  const levels = new Uint8Array(count);
  cur.seek(level0End);
  for (let i = 0; i < count; i++) {
    const size = need(4, `the link lists of element ${i}`).readUInt32LE(0);
    const level = size / layout.linksUpper;
    if (!Number.isInteger(level)) fail(`element ${i}: its upper link lists take ${size} bytes, not a multiple of ${layout.linksUpper}`);
    if (level > maxLevel) fail(`element ${i} is on level ${level}, above maxlevel ${maxLevel}`);
    if (cur.position + size > cur.size) fail(`truncated in the link lists of element ${i}`);
    levels[i] = level;
    cur.skip(size);
  }
  if (cur.position !== cur.size) fail(`${cur.size - cur.position} bytes follow the last element's link lists`);
  if (count > 0 && levels[entry] !== maxLevel) fail(`the entry point, element ${entry}, is on level ${levels[entry]}, not maxlevel ${maxLevel}`);
  return levels;
}

/** Pass 2: level 0 (neighbours, vector, label, delete mark). */
function checkLevel0(count: number, { cur, want, layout, fail, need }: Reading): void {
  const { maxM0, links0, dataBytes, recordBytes } = layout;
  const seen = new Set<number>();
  cur.seek(HNSW_HEADER_BYTES);
  for (let i = 0; i < count; i++) {
    const rec = need(recordBytes, `element ${i}`);
    const head = rec.readUInt32LE(0);
    const n = head & 0xffff;
    if (head >>> 16 > 1) fail(`element ${i}: its level-0 list header ${head} has bits set that hnswlib never sets`);
    if (n > maxM0) fail(`element ${i} has ${n} level-0 neighbours (at most ${maxM0})`);
    for (let j = 0; j < n; j++) {
      const id = rec.readUInt32LE(4 + 4 * j);
      if (id >= count) fail(`neighbour ${j} of element ${i} is ${id} but the index holds ${count} elements`);
    }
    for (let d = 0; d < want.dim; d++) {
      const x = rec.readFloatLE(links0 + 4 * d);
      if (!Number.isFinite(x)) fail(`element ${i}: coordinate ${d} is ${x}`);
    }
    const label = u64(rec, links0 + dataBytes, want.maxLabel);
    if (label === undefined) return fail(`element ${i} has label ${rec.readBigUInt64LE(links0 + dataBytes)}, above ${want.maxLabel}`);
    if (seen.has(label)) fail(`label ${label} appears twice (element ${i})`);
    seen.add(label);
    const markedDeleted = (head & DELETE_MARK) !== 0;
    if (markedDeleted ? !want.deleted.has(label) : !want.live.has(label)) {
      const listed = want.live.has(label) ? 'live' : want.deleted.has(label) ? 'deleted' : 'in neither list';
      fail(`element ${i} (label ${label}) is ${markedDeleted ? 'marked deleted' : 'live'} but vectors.json has it ${listed}`);
    }
  }
}

/** Pass 3: upper levels; a neighbour on level l must itself reach level l. */
function checkUpperLevels(level0End: number, levels: Uint8Array, { cur, layout, fail, need }: Reading): void {
  const count = levels.length;
  cur.seek(level0End);
  for (let i = 0; i < count; i++) {
    const size = need(4, `the link lists of element ${i}`).readUInt32LE(0);
    if (size === 0) continue;
    const lists = need(size, `the link lists of element ${i}`);
    for (let level = 1; level <= (levels[i] as number); level++) {
      const at = (level - 1) * layout.linksUpper;
      const n = lists.readUInt32LE(at) & 0xffff;
      if (n > layout.maxM) fail(`element ${i} has ${n} neighbours on level ${level} (at most ${layout.maxM})`);
      for (let j = 0; j < n; j++) {
        const id = lists.readUInt32LE(at + 4 + 4 * j);
        if (id >= count) fail(`neighbour ${j} of element ${i} on level ${level} is ${id} but the index holds ${count} elements`);
        if ((levels[id] as number) < level) fail(`neighbour ${j} of element ${i} on level ${level} is element ${id}, which is only on level ${levels[id]}`);
      }
    }
  }
}
