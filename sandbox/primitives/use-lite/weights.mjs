// Reads a TF.js graph model's weights (model.json's manifest and its binary shards) as named typed arrays,
// checking that the shards hold exactly what the manifest says.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const BYTES = { float32: 4, int32: 4 };

/** @returns {Map<string, {shape: number[], data: Float32Array | Int32Array}>} */
export function readTfjsWeights(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')).weightsManifest;
  if (!Array.isArray(manifest)) throw new Error(`${dir}/model.json has no weightsManifest`);
  const out = new Map();
  for (const group of manifest) {
    const shards = group.paths.map((p) => {
      if (typeof p !== 'string' || p.includes('/') || p.includes('\\')) throw new Error(`unexpected weight file name ${JSON.stringify(p)}`);
      return readFileSync(join(dir, p));
    });
    const bytes = Buffer.concat(shards);
    let at = 0;
    for (const w of group.weights) {
      const size = BYTES[w.dtype];
      if (!size || w.quantization) throw new Error(`weight ${w.name}: unsupported type ${w.dtype}${w.quantization ? ' (quantized)' : ''}`);
      const count = w.shape.reduce((a, b) => a * b, 1);
      if (at + count * size > bytes.length) throw new Error(`the weight files end inside ${w.name}`);
      const copy = bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + count * size);
      out.set(w.name, { shape: w.shape, data: w.dtype === 'float32' ? new Float32Array(copy) : new Int32Array(copy) });
      at += count * size;
    }
    if (at !== bytes.length) throw new Error(`the weight files hold ${bytes.length - at} bytes the manifest does not name`);
  }
  return out;
}
