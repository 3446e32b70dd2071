// A separate process writing to an embedding store (for the concurrent-writers test): stores the test's vectors
// for keys [from, to) in small puts, as a process embedding as it goes would.
import { embeddingKey } from '../../../sandbox/primitives/embed-record.ts';
import { EmbeddingStore } from '../../../sandbox/primitives/embed-store.ts';

const [dir, from, to] = process.argv.slice(2);
const store = new EmbeddingStore(dir as string, { capBytes: 1 << 20 });
for (let i = Number(from); i < Number(to); i += 3) {
  const batch = [i, i + 1, i + 2].filter((j) => j < Number(to));
  store.put(batch.map((j) => [embeddingKey('test-model', `text ${j}`), Float32Array.from({ length: 64 }, (_, d) => Math.sin(j * 7 + d))]));
  await new Promise((r) => setImmediate(r));
}
await store.flush();
await store.close();
