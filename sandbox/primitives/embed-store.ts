// The on-disk embedding cache: segment files of binary records (see embed-record.ts) in one folder per model,
// shared by every process that embeds with that model.
//
// - Each store appends only to a segment it created, so processes writing at once never tear each other's
//   records; a segment is closed for writing at `segmentBytes` and a new one begun.
// - Nothing is read whole: an index of keys is built by scanning segments in bounded chunks (record heads only),
//   and a vector is read by position on a hit and checked end to end. A torn, corrupt or foreign record is a miss.
// - The folder stays under `capBytes`: before a write that would pass it, the least recently written segments
//   are deleted (only files named as this store names its segments).
// - Any failure (I/O, a folder that is a file, a read-only or full disk) makes the store answer misses or stop
//   writing; it never throws to its caller.
// - A miss looks again, at most every `refreshMs`, for segments other processes wrote or grew meanwhile.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { decodeRecord, encodeRecord, KEY_BYTES, MAX_DIM, RECORD_HEAD, RECORD_MAGIC, recordBytes, recordKey, recordLengthAt, SEGMENT_HEADER } from './embed-record.ts';

export interface EmbeddingStoreOptions {
  /** Bytes all segments together may take on disk. */
  capBytes: number;
  /** A segment takes no more writes past this size (default: a quarter of the cap, at most 64 MiB). */
  segmentBytes?: number;
  /** Segments kept at most: many short processes each leave one (default 256). */
  maxSegments?: number;
  /** A miss looks for other processes' new records at most this often (default 1000 ms). */
  refreshMs?: number;
  /** Keys indexed at most (default: as many 16-d records as fit the cap, at most 1,000,000). */
  maxEntries?: number;
}

interface Segment {
  id: number;
  name: string;
  /** Bytes on disk when last seen (or written by us). */
  size: number;
  /** Records before this offset are indexed. */
  scanned: number;
  mtimeMs: number;
  /** Not in this store's format: never read, first to go. */
  foreign?: boolean;
}

const SEGMENT_NAME = /^seg-\d{13}-\d{1,10}-[0-9a-f]{8}\.bin$/;
/** Index locations pack (segment id, offset) into one number; offsets stay below 2^32. */
const SPAN = 2 ** 32;
const SCAN_CHUNK = 1 << 20;
const OPEN_READERS = 16;

export class EmbeddingStore {
  private readonly capBytes: number;
  private readonly segmentBytes: number;
  private readonly maxSegments: number;
  private readonly refreshMs: number;
  private readonly maxEntries: number;
  private readonly segments = new Map<string, Segment>();
  private readonly byId = new Map<number, Segment>();
  private readonly index = new Map<string, number>();
  /** Read descriptors, least recently used first. */
  private readonly readers = new Map<number, number>();
  private nextSegmentId = 1;
  private writer: { segment: Segment; fd: number } | undefined;
  private writable = true;
  private usable = true;
  private opened: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private lastRefresh = -Infinity;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    readonly dir: string,
    options: EmbeddingStoreOptions,
  ) {
    this.capBytes = Math.max(0, Math.floor(options.capBytes));
    this.segmentBytes = Math.min(options.segmentBytes ?? Math.min(64 * 2 ** 20, Math.floor(this.capBytes / 4)), SPAN - 1);
    this.maxSegments = options.maxSegments ?? 256;
    this.refreshMs = options.refreshMs ?? 1000;
    this.maxEntries = options.maxEntries ?? Math.min(1_000_000, Math.ceil(this.capBytes / recordBytes(16)));
  }

  /** Bytes of the segments known (on disk when last looked at, plus what this store wrote since). */
  get bytes(): number {
    let n = 0;
    for (const s of this.segments.values()) n += s.size;
    return n;
  }

  /** Keys indexed. */
  get size(): number {
    return this.index.size;
  }

  /** The stored vector of each key, or undefined (a miss: not stored, unreadable, or corrupt). */
  async get(keys: string[]): Promise<(Float32Array | undefined)[]> {
    const none = () => keys.map(() => undefined);
    if (!this.usable) return none();
    try {
      await this.open();
      if (keys.some((k) => !this.index.has(k)) && performance.now() - this.lastRefresh >= this.refreshMs) await this.refresh();
      return keys.map((k) => this.read(k));
    } catch {
      return none();
    }
  }

  /** Stores vectors, in the background: `flush()` waits for it. A write that fails stops this store's writing. */
  put(entries: [string, Float32Array][]): void {
    if (!this.usable || !this.writable || entries.length === 0) return;
    this.writes = this.writes
      .then(() => this.write(entries))
      .catch(() => this.stopWriting());
  }

  /** Resolves when every write asked so far is done. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** Releases the files this store holds open; later calls answer misses and write nothing. */
  async close(): Promise<void> {
    await this.writes;
    this.usable = false;
    this.stopWriting();
    for (const fd of this.readers.values()) closeQuietly(fd);
    this.readers.clear();
  }

  private open(): Promise<void> {
    this.opened ??= this.refresh();
    return this.opened;
  }

  private refresh(): Promise<void> {
    this.refreshing ??= this.look().finally(() => {
      this.refreshing = undefined;
      this.lastRefresh = performance.now();
    });
    return this.refreshing;
  }

  /** Finds segments that appeared, grew or went away, and indexes what is new in the newest `capBytes` of them. */
  private async look(): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => SEGMENT_NAME.test(n));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') names = [];
      else {
        this.usable = false;
        return;
      }
    }
    const present = new Set(names);
    this.forget([...this.segments.values()].filter((s) => !present.has(s.name) && s !== this.writer?.segment));
    // Newest first (names begin with their creation time), and no more of them than may be kept.
    const newest = names.sort().reverse().slice(0, this.maxSegments * 2);
    const seen: Segment[] = [];
    for (const name of newest) {
      try {
        const st = await lstat(join(this.dir, name));
        if (!st.isFile()) continue;
        const seg = this.segments.get(name) ?? this.add(name, 0);
        if (seg !== this.writer?.segment) {
          seg.size = st.size;
          seg.mtimeMs = st.mtimeMs;
        }
        seen.push(seg);
      } catch {
        // gone meanwhile
      }
    }
    let budget = this.capBytes;
    for (const seg of seen.sort((a, b) => b.mtimeMs - a.mtimeMs)) {
      if (budget <= 0) break;
      budget -= seg.size;
      if (seg === this.writer?.segment || seg.foreign || seg.scanned >= seg.size) continue;
      try {
        await this.scan(seg);
      } catch {
        // unreadable now: its records stay misses until a later look
      }
    }
  }

  private add(name: string, size: number): Segment {
    const seg: Segment = { id: this.nextSegmentId++, name, size, scanned: 0, mtimeMs: 0 };
    this.segments.set(name, seg);
    this.byId.set(seg.id, seg);
    return seg;
  }

  /** Indexes the records of `seg` from where the last scan stopped, reading bounded chunks. */
  private async scan(seg: Segment): Promise<void> {
    const size = Math.min(seg.size, SPAN - 1);
    const fh = await open(join(this.dir, seg.name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      let win = Buffer.alloc(0);
      let winAt = 0;
      /** Makes bytes [at, at + n) readable in `win`; false when the file does not hold them (yet). */
      const have = async (at: number, n: number): Promise<boolean> => {
        if (at + n > size) return false;
        if (at >= winAt && at + n <= winAt + win.length) return true;
        const buf = Buffer.allocUnsafe(Math.min(Math.max(SCAN_CHUNK, n), size - at));
        const { bytesRead } = await fh.read(buf, 0, buf.length, at);
        win = buf.subarray(0, bytesRead);
        winAt = at;
        return bytesRead >= n;
      };
      /** Where the next record magic after `from` starts, or undefined when the file has none. */
      const nextMagic = async (from: number): Promise<number | undefined> => {
        for (let at = from; await have(at, RECORD_MAGIC.length); ) {
          const i = win.indexOf(RECORD_MAGIC, at - winAt);
          if (i >= 0) return winAt + i;
          at = Math.max(at + 1, winAt + win.length - (RECORD_MAGIC.length - 1));
        }
        return undefined;
      };
      let pos = seg.scanned;
      if (pos === 0) {
        if (!(await have(0, SEGMENT_HEADER.length))) return;
        if (win.compare(SEGMENT_HEADER, 0, SEGMENT_HEADER.length, 0, SEGMENT_HEADER.length) !== 0) {
          seg.foreign = true;
          return;
        }
        pos = SEGMENT_HEADER.length;
      }
      while (pos < size) {
        if (!(await have(pos, RECORD_HEAD))) break;
        const length = recordLengthAt(win, pos - winAt);
        if (length === undefined) {
          // Not a record head: skip to the next magic (a corrupt stretch costs only the records inside it).
          const next = win.indexOf(RECORD_MAGIC, pos - winAt + 1);
          pos = next >= 0 ? winAt + next : Math.max(pos + 1, winAt + win.length - (RECORD_MAGIC.length - 1));
          continue;
        }
        const end = pos + length;
        if (end > size) {
          // A record still being written is the last thing in its file; with a record after it, its length is corrupt.
          const next = await nextMagic(pos + 1);
          if (next === undefined) break; // looked at again when the file grows
          pos = next;
          continue;
        }
        const key = recordKey(win, pos - winAt);
        // A record is followed by the end of the file or the next record's magic; otherwise its length is
        // corrupt, and trusting it would hide the good records after it.
        if (end + RECORD_MAGIC.length <= size) {
          if (!(await have(end, RECORD_MAGIC.length))) break;
          if (win.compare(RECORD_MAGIC, 0, RECORD_MAGIC.length, end - winAt, end - winAt + RECORD_MAGIC.length) !== 0) {
            pos++;
            continue;
          }
        }
        if (this.index.size < this.maxEntries || this.index.has(key)) this.index.set(key, seg.id * SPAN + pos);
        pos = end;
      }
      seg.scanned = pos;
    } finally {
      await fh.close();
    }
  }

  /** The vector at the key's place, checked; a failed read or check forgets the key. */
  private read(key: string): Float32Array | undefined {
    const at = this.index.get(key);
    if (at === undefined) return undefined;
    const seg = this.byId.get(Math.floor(at / SPAN));
    const pos = at % SPAN;
    try {
      const fd = seg && !seg.foreign ? this.reader(seg) : undefined;
      if (fd !== undefined) {
        const head = Buffer.alloc(RECORD_HEAD);
        const length = readSync(fd, head, 0, RECORD_HEAD, pos) === RECORD_HEAD ? recordLengthAt(head, 0) : undefined;
        if (length !== undefined) {
          const rec = Buffer.alloc(length);
          if (readSync(fd, rec, 0, length, pos) === length) {
            const v = decodeRecord(rec, key);
            if (v) return v;
          }
        }
      }
    } catch {
      // unreadable: a miss
    }
    this.index.delete(key);
    return undefined;
  }

  private reader(seg: Segment): number | undefined {
    const fd = this.readers.get(seg.id);
    if (fd !== undefined) {
      this.readers.delete(seg.id);
      this.readers.set(seg.id, fd);
      return fd;
    }
    const opened = openSync(join(this.dir, seg.name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!fstatSync(opened).isFile()) {
      closeSync(opened);
      return undefined;
    }
    this.readers.set(seg.id, opened);
    if (this.readers.size > OPEN_READERS) {
      const [oldest, oldFd] = this.readers.entries().next().value as [number, number];
      this.readers.delete(oldest);
      closeQuietly(oldFd);
    }
    return opened;
  }

  private async write(entries: [string, Float32Array][]): Promise<void> {
    await this.open();
    if (!this.usable || !this.writable) return;
    const room = this.segmentBytes - SEGMENT_HEADER.length;
    const records = entries
      .filter(([k, v]) => k.length === KEY_BYTES && v.length >= 1 && v.length <= MAX_DIM && recordBytes(v.length) <= room)
      .map(([k, v]) => ({ key: k, bytes: encodeRecord(k, v) }));
    let group: { key: string; bytes: Buffer }[] = [];
    let groupBytes = 0;
    for (const rec of records) {
      if (!this.writer || this.writer.segment.size + groupBytes + rec.bytes.length > this.segmentBytes) {
        this.append(group, groupBytes);
        group = [];
        groupBytes = 0;
        this.rotate();
      }
      group.push(rec);
      groupBytes += rec.bytes.length;
    }
    this.append(group, groupBytes);
  }

  /** Appends records to the writer's segment in one write, after making room under the cap. */
  private append(group: { key: string; bytes: Buffer }[], bytes: number): void {
    const w = this.writer;
    if (!w || group.length === 0 || !this.writable) return;
    // Another process may have evicted our segment: writing on would fill a file nobody can see.
    if (fstatSync(w.fd).nlink === 0) {
      this.forget([w.segment]);
      this.rotate();
      return this.append(group, bytes);
    }
    if (!this.makeRoom(bytes)) return;
    const buf = Buffer.concat(group.map((r) => r.bytes), bytes);
    writeAll(w.fd, buf);
    let pos = w.segment.size;
    for (const r of group) {
      this.index.set(r.key, w.segment.id * SPAN + pos);
      pos += r.bytes.length;
    }
    w.segment.size = pos;
    w.segment.scanned = pos;
    w.segment.mtimeMs = Date.now();
  }

  /** Starts a new segment of our own (the old one stays readable). */
  private rotate(): void {
    if (this.writer) closeQuietly(this.writer.fd);
    this.writer = undefined;
    makeFolder(this.dir);
    this.restat();
    if (!this.makeRoom(SEGMENT_HEADER.length, 1)) throw new Error('no room under the cache cap');
    const name = `seg-${String(Date.now()).padStart(13, '0')}-${process.pid}-${randomBytes(4).toString('hex')}.bin`;
    const fd = openSync(join(this.dir, name), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | constants.O_NOFOLLOW, 0o644);
    this.writer = { segment: this.add(name, 0), fd };
    writeAll(fd, SEGMENT_HEADER);
    this.writer.segment.size = SEGMENT_HEADER.length;
    this.writer.segment.scanned = SEGMENT_HEADER.length;
    this.writer.segment.mtimeMs = Date.now();
  }

  /** Sizes of every segment as they are on disk now (other processes write too). */
  private restat(): void {
    const names = readdirSync(this.dir).filter((n) => SEGMENT_NAME.test(n));
    const present = new Set(names);
    this.forget([...this.segments.values()].filter((s) => !present.has(s.name) && s !== this.writer?.segment));
    for (const name of names) {
      try {
        const st = lstatSync(join(this.dir, name));
        if (!st.isFile()) continue;
        const seg = this.segments.get(name) ?? this.add(name, 0);
        if (seg === this.writer?.segment) continue;
        seg.size = st.size;
        seg.mtimeMs = st.mtimeMs;
      } catch {
        // gone meanwhile
      }
    }
  }

  /**
   * Deletes the least recently written segments (never the one being written) until `bytes` more fit under the
   * cap and `extraSegments` more under the segment count; false when they cannot.
   */
  private makeRoom(bytes: number, extraSegments = 0): boolean {
    if (this.bytes + bytes > this.capBytes) this.restat();
    while (this.bytes + bytes > this.capBytes || this.segments.size + extraSegments > this.maxSegments) {
      let victim: Segment | undefined;
      for (const s of this.segments.values()) {
        if (s === this.writer?.segment) continue;
        if (!victim || rank(s) < rank(victim)) victim = s;
      }
      if (!victim) return this.bytes + bytes <= this.capBytes;
      try {
        unlinkSync(join(this.dir, victim.name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      this.forget([victim]);
    }
    return true;
  }

  /** Drops segments from the index (they were deleted, or are about to be). */
  private forget(gone: Segment[]): void {
    if (gone.length === 0) return;
    const ids = new Set(gone.map((s) => s.id));
    for (const s of gone) {
      this.segments.delete(s.name);
      this.byId.delete(s.id);
      const fd = this.readers.get(s.id);
      if (fd !== undefined) closeQuietly(fd);
      this.readers.delete(s.id);
      if (this.writer?.segment === s) {
        closeQuietly(this.writer.fd);
        this.writer = undefined;
      }
    }
    for (const [k, at] of this.index) if (ids.has(Math.floor(at / SPAN))) this.index.delete(k);
  }

  private stopWriting(): void {
    this.writable = false;
    if (this.writer) closeQuietly(this.writer.fd);
    this.writer = undefined;
  }
}

/** Eviction order: foreign files first, then the least recently written. */
const rank = (s: Segment): number => (s.foreign ? -Infinity : s.mtimeMs);

function writeAll(fd: number, buf: Buffer): void {
  for (let off = 0; off < buf.length; ) {
    const n = writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw new Error('short write');
    off += n;
  }
}

/**
 * Creates a folder and its missing parents, one level at a time (Node's recursive mkdir can loop forever where
 * mkdir answers ENOENT for a parent that exists, as on /proc); throws when it cannot.
 */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); missing.length < 64; d = dirname(d)) {
    try {
      if (!statSync(d).isDirectory()) throw new Error(`${d} is not a folder`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(d) === d) throw err;
      missing.push(d);
    }
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

const stores = new Map<string, EmbeddingStore>();

/** One store per folder in a process, so the process appends to one segment at a time there. */
export function sharedEmbeddingStore(dir: string, options: EmbeddingStoreOptions): EmbeddingStore {
  let store = stores.get(dir);
  if (!store) stores.set(dir, (store = new EmbeddingStore(dir, options)));
  return store;
}

/** Waits for the cache writes under way in every shared store. */
export async function flushEmbeddingStores(): Promise<void> {
  await Promise.all([...stores.values()].map((s) => s.flush()));
}
