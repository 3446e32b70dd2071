// An evaluation's evidence folder as files that can cross a process or a network, and back into the run folder.
// Packing reads only regular files (a link is skipped), bounded in count and bytes; unpacking writes each file
// through writeInside, so a result naming "../x" or a link planted in the folder cannot write outside it.
import { lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSafeRelPath, writeInside } from '../../foundation/safe-path.ts';
import { type EvidenceFile, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_FILES } from './job.ts';

export function packEvidence(dir: string): EvidenceFile[] {
  const out: EvidenceFile[] = [];
  let bytes = 0;
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      if (!e.isFile() || !isSafeRelPath(path)) continue;
      if (out.length >= MAX_EVIDENCE_FILES) throw new Error(`the evidence holds more than ${MAX_EVIDENCE_FILES} files`);
      bytes += lstatSync(join(dir, path)).size;
      if (bytes > MAX_EVIDENCE_BYTES) throw new Error(`the evidence holds more than ${MAX_EVIDENCE_BYTES / 2 ** 20} MiB`);
      out.push({ path, base64: readFileSync(join(dir, path)).toString('base64') });
    }
  };
  walk('');
  return out;
}

/** Writes the files into `dir` (made if missing); a path that is not a safe relative path is refused by name. */
export function unpackEvidence(dir: string, files: EvidenceFile[]): void {
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (const f of files) {
    if (!isSafeRelPath(f.path)) throw new Error(`an evidence file is named ${JSON.stringify(f.path.slice(0, 100))}, which is not a safe relative path`);
    // Counted from the text before it is decoded: a giant file is refused without being held twice.
    bytes += Math.floor((f.base64.length * 3) / 4);
    if (bytes > MAX_EVIDENCE_BYTES) throw new Error(`the evidence holds more than ${MAX_EVIDENCE_BYTES / 2 ** 20} MiB`);
    writeInside(dir, f.path, Buffer.from(f.base64, 'base64'));
  }
}
