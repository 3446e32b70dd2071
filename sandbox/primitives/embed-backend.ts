// Which engine runs the offline embedding model (USE-lite, same weights either way; use-lite/README.md):
// - 'onnx': ONNX Runtime's CPU kernels (onnxruntime-node, binary in the npm package), fp32: TF.js's vectors within
//   1e-6 at 9–11× its texts/s here (npm run bench:embed). The default where its binary exists for the platform.
// - 'onnx-int8': the same with the transformer's matrix products in int8, about 2× faster again; vectors within
//   cos 0.999, which moves some programs' scores (opt-in).
// - 'tfjs': TF.js's WebAssembly backend as @energetic-ai ships it: the path every vector came from before.
// Their vectors differ in rounding at least, so each has its own cache key and disk folder: a cache never mixes them.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { EnvVars } from '../../foundation/env-vars.ts';

export type EmbedBackend = 'onnx' | 'onnx-int8' | 'tfjs';

export const EMBED_BACKENDS: Record<EmbedBackend, { id: string; label: string }> = {
  // The id names model and backend and is part of every cache key; bump its version when the ONNX graph's
  // numerics change.
  onnx: { id: 'use-lite-512+onnx-fp32-v3', label: 'ONNX Runtime' },
  'onnx-int8': { id: 'use-lite-512+onnx-int8-v3', label: 'ONNX Runtime int8' },
  tfjs: { id: 'use-lite-512', label: 'TF.js WebAssembly' },
};

const BackendName = z.enum(['onnx', 'onnx-int8', 'tfjs']);

/** Whether onnxruntime-node is installed with a native binding for this platform and architecture. */
export function onnxRuntimeAvailable(): boolean {
  try {
    const pkg = dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
    return existsSync(join(pkg, 'bin', 'napi-v6', process.platform, process.arch, 'onnxruntime_binding.node'));
  } catch {
    return false;
  }
}

/** AUTOMEMO_EMBED_BACKEND (onnx or tfjs), else onnx where it can run, else tfjs. */
export function embedBackendFromEnv(env: EnvVars = process.env): EmbedBackend {
  const raw = env.AUTOMEMO_EMBED_BACKEND?.trim();
  if (!raw) return onnxRuntimeAvailable() ? 'onnx' : 'tfjs';
  const parsed = BackendName.safeParse(raw);
  if (!parsed.success) throw new Error(`AUTOMEMO_EMBED_BACKEND must be "onnx", "onnx-int8" or "tfjs"; got "${raw}"`);
  if (parsed.data !== 'tfjs' && !onnxRuntimeAvailable()) {
    throw new Error(`AUTOMEMO_EMBED_BACKEND=${parsed.data}, but onnxruntime-node has no binary for ${process.platform}-${process.arch} here; use tfjs`);
  }
  return parsed.data;
}
