// One cached embedding on disk, little-endian:
//   [magic u32][key: 20 bytes, SHA-1 of model id + text][dim u32][dim × float32][check u32]
// The check is the first four bytes of the SHA-1 of everything before it, so a torn, altered or foreign record is
// told from a good one. A segment file starts with SEGMENT_HEADER and holds records back to back.
import { createHash } from 'node:crypto';

export const KEY_BYTES = 20;
export const MAX_DIM = 65_536;
export const RECORD_MAGIC = Buffer.from([0xe3, 0x45, 0x4d, 0x31]);
export const SEGMENT_HEADER = Buffer.from('automemo-embeddings/1\n', 'latin1');
/** Magic, key and dim: enough to know a record's length. */
export const RECORD_HEAD = 4 + KEY_BYTES + 4;

export const recordBytes = (dim: number): number => RECORD_HEAD + 4 * dim + 4;

/** The cache key of a text under a model: 20 bytes, held as a latin1 string (compact as a Map key). */
export function embeddingKey(modelId: string, text: string): string {
  return createHash('sha1').update(modelId).update('\u0000').update(text).digest().toString('latin1');
}

const check = (bytes: Buffer): number => createHash('sha1').update(bytes).digest().readUInt32LE(0);

export function encodeRecord(key: string, vector: Float32Array): Buffer {
  const dim = vector.length;
  const out = Buffer.alloc(recordBytes(dim));
  RECORD_MAGIC.copy(out, 0);
  out.write(key, 4, KEY_BYTES, 'latin1');
  out.writeUInt32LE(dim, 4 + KEY_BYTES);
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(out, RECORD_HEAD);
  out.writeUInt32LE(check(out.subarray(0, out.length - 4)), out.length - 4);
  return out;
}

/** The length of the record starting at `off` from its head alone, or undefined when no record starts there. */
export function recordLengthAt(buf: Buffer, off: number): number | undefined {
  if (off + RECORD_HEAD > buf.length) return undefined;
  if (buf.compare(RECORD_MAGIC, 0, 4, off, off + 4) !== 0) return undefined;
  const dim = buf.readUInt32LE(off + 4 + KEY_BYTES);
  return dim >= 1 && dim <= MAX_DIM ? recordBytes(dim) : undefined;
}

export const recordKey = (buf: Buffer, off: number): string => buf.toString('latin1', off + 4, off + 4 + KEY_BYTES);

/** The vector of a whole record, checked end to end (magic, key, dim, check, finite values), or undefined. */
export function decodeRecord(rec: Buffer, expectedKey: string): Float32Array | undefined {
  const length = recordLengthAt(rec, 0);
  if (length === undefined || length !== rec.length) return undefined;
  if (recordKey(rec, 0) !== expectedKey) return undefined;
  if (check(rec.subarray(0, length - 4)) !== rec.readUInt32LE(length - 4)) return undefined;
  const dim = (length - RECORD_HEAD - 4) / 4;
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) {
    const x = rec.readFloatLE(RECORD_HEAD + 4 * i);
    if (!Number.isFinite(x)) return undefined;
    out[i] = x;
  }
  return out;
}
