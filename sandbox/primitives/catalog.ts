// Every host primitive a memo program can call, each declared once (declare.ts): its argument schema, call quota,
// whether it writes memory, and its implementation. The host (index.ts), the isolate's prelude and the in-process
// bench context all derive from this list; adding a primitive is one entry here (see sandbox/README.md).
import { z } from 'zod';
import { caption, ocr, perceptualHash, pixelEmbedding, thumbnail } from './images.ts';
import { DEFAULT_ARG_LIMITS } from './arg-bounds.ts';
import { ctxMethod, type HostMethod, type HostPrimitive, indexMethod, marshalled, plainStubs } from './declare.ts';
import { QuotaError } from './quotas.ts';

// An ImageRef is named by its id; the rest of it (mime, caption, size) is the host's to know.
const ImageArg = z.object({ id: z.string().min(1).max(200) });
const Label = z.number().int().min(0).max(2 ** 31 - 1);
// Coordinates are checked by the vector store, which names the bad one (NaN, Infinity, a string). Vectors from
// the isolate arrive as Float64Array (see the prelude); in-process callers pass arrays.
const Vector = z.custom<number[] | Float64Array>(
  (v) => (Array.isArray(v) || v instanceof Float64Array) && (v as { length: number }).length <= 65_536,
  { message: 'expected an array of at most 65,536 numbers' },
);
const Tags = z.array(z.string().max(200)).max(64);
// Every length has a ceiling in the schema too (argBoundsIssue enforces the same ones before zod runs); quotas
// such as embedBatch or kvKeyChars, which a user may change, are checked where the work happens.
const Text = z.string().max(DEFAULT_ARG_LIMITS.maxChars);
const Labels = z.array(Label).max(DEFAULT_ARG_LIMITS.maxArrayLength);
const Handle = z.number().int();
const K = z.number().int().min(0).max(10_000);
const SearchOptions = z
  .object({ labels: Labels.optional(), anyTags: Tags.optional(), ef: z.number().int().min(1).max(10_000).optional() })
  .strict()
  .optional()
  .nullable();
const ChatRequest = z
  .object({
    messages: z
      .array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: Text }).strict())
      .min(1)
      .max(1000),
    maxTokens: z.number().int().positive().max(32_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    json: z.boolean().optional(),
  })
  .strict();

/**
 * A packed array of doubles, which hnswlib and the checks read fastest. An indexed loop: Array.from walks the
 * iterator protocol and is ~15x slower on a 512-d vector.
 */
function plainVector(v: number[] | Float64Array | Float32Array): number[] {
  if (Array.isArray(v)) return v;
  const out: number[] = [];
  for (let i = 0; i < v.length; i++) out[i] = v[i] as number;
  return out;
}

export const PRIMITIVES = [
  // Float32Array crosses into the isolate as one copy; the prelude unpacks it into number[].
  marshalled('embed', {
    serves: ['embed'],
    args: z.tuple([z.array(Text).max(DEFAULT_ARG_LIMITS.maxArrayLength)]),
    quota: 'embedCalls',
    run: (host, [texts]) => host.embedTexts(texts, (vectors) => vectors),
  }),
  marshalled('embedImage', {
    serves: ['embedImage'],
    args: z.tuple([ImageArg]),
    quota: 'imageCalls',
    run: (host, [image]) => pixelEmbedding(host.image(image).bytes),
  }),
  marshalled('vectors.create', {
    serves: ['vectors.create'],
    args: z.tuple([
      z
        .object({ dim: z.number().int(), space: z.enum(['cosine', 'ip', 'l2']).optional(), maxElements: z.number().int().positive().optional() })
        .strict(),
    ]),
    writes: true,
    run: (host, [o]) => host.vectors.create(o.dim, o.space ?? 'cosine', o.maxElements ?? 1024),
  }),
  marshalled('vectors.open', {
    serves: ['vectors.open'],
    args: z.tuple([Handle]),
    run: (host, [handle]) => host.vectors.open(handle),
  }),
  marshalled('vectors.add', {
    serves: ['index.add', 'index.addMany'],
    args: z.tuple([
      Handle,
      z.array(z.object({ label: Label, vector: Vector, tags: Tags.optional().nullable() }).strict()).max(DEFAULT_ARG_LIMITS.maxArrayLength),
    ]),
    writes: true,
    run: (host, [handle, items]) => {
      host.vectors.add(
        handle,
        items.map((it) => ({ label: it.label, vector: plainVector(it.vector), tags: it.tags ?? undefined })),
      );
      return null;
    },
  }),
  marshalled('vectors.search', {
    serves: ['index.search'],
    args: z.tuple([Handle, Vector, K, SearchOptions]),
    run: (host, [handle, vector, k, options]) => host.vectors.search(handle, plainVector(vector), k, options ?? undefined),
  }),
  indexMethod('addText', {
    args: z.tuple([Handle, Label, Text, Tags.optional().nullable()]),
    quota: 'embedCalls',
    writes: true,
    run: (host, [handle, label, text, tags]) =>
      host.embedTexts([text], ([v]) => {
        host.vectors.add(handle, [{ label, vector: plainVector(v as Float32Array), tags: tags ?? undefined }]);
        return null;
      }),
  }),
  indexMethod('searchText', {
    args: z.tuple([Handle, Text, K, SearchOptions]),
    quota: 'embedCalls',
    run: (host, [handle, text, k, options]) =>
      host.embedTexts([text], ([v]) => host.vectors.search(handle, plainVector(v as Float32Array), k, options ?? undefined)),
  }),
  indexMethod('remove', {
    args: z.tuple([Handle, Label]),
    writes: true,
    run: (host, [handle, label]) => {
      host.vectors.remove(handle, label);
      return null;
    },
  }),
  indexMethod('size', {
    args: z.tuple([Handle]),
    run: (host, [handle]) => host.vectors.size(handle),
  }),
  ctxMethod('llm.chat', {
    args: z.tuple([ChatRequest]),
    quota: 'llmCalls',
    run: (host, [request]) => {
      const chars = request.messages.reduce((n, m) => n + m.content.length, 0);
      if (chars > host.quotas.llmPromptChars) {
        throw new QuotaError('llmPromptChars', `prompt of ${chars} characters (max ${host.quotas.llmPromptChars})`);
      }
      return host.chat.chat(request).then((r) => {
        if (!r.offline) host.spentTokens(r.usage);
        return r;
      });
    },
  }),
  ctxMethod('images.caption', {
    args: z.tuple([ImageArg]),
    quota: 'imageCalls',
    run: (host, [image]) => caption(host.image(image), host.chat),
  }),
  ctxMethod('images.phash', {
    args: z.tuple([ImageArg]),
    quota: 'imageCalls',
    run: (host, [image]) => perceptualHash(host.image(image).bytes),
  }),
  ctxMethod('images.thumbnail', {
    args: z.tuple([ImageArg, z.object({ maxSide: z.number().int().min(8).max(2048).optional() }).strict().optional().nullable()]),
    quota: 'imageCalls',
    run: (host, [image, options]) => {
      const img = host.image(image);
      return thumbnail(img.bytes, options?.maxSide ?? 128).then((png) =>
        host.images.put(png, { mime: 'image/png', ...(img.ref.caption ? { caption: img.ref.caption } : {}) }),
      );
    },
  }),
  ctxMethod('images.ocr', {
    args: z.tuple([ImageArg]),
    quota: 'imageCalls',
    run: (host, [image]) => ocr(host.image(image).bytes),
  }),
  marshalled('kv.get', {
    serves: ['kv.get'],
    args: z.tuple([Text]),
    run: (host, [key]) => host.kv.get(key),
  }),
  marshalled('kv.set', {
    serves: ['kv.set'],
    args: z.tuple([Text, Text]),
    writes: true,
    run: (host, [key, json]) => {
      host.kv.set(key, json);
      return null;
    },
  }),
  ctxMethod('kv.delete', {
    args: z.tuple([Text]),
    writes: true,
    run: (host, [key]) => host.kv.delete(key),
  }),
  ctxMethod('kv.keys', {
    args: z.tuple([Text.nullish()]),
    run: (host, [prefix]) => host.kv.keys(prefix ?? ''),
  }),
  // The isolate cuts and counts log lines against the instance's logBytes before they cross; so does the host.
  marshalled('log', {
    serves: ['log'],
    args: z.tuple([Text]),
    metered: false,
    run: (host, [line]) => {
      host.log(line);
      return null;
    },
  }),
];

/** The contract methods the declarations answer; a method of the contract missing here fails to compile. */
type Served<P> = P extends HostPrimitive<infer M> ? M : never;
const everyContractMethodDeclared: [Exclude<HostMethod, Served<(typeof PRIMITIVES)[number]>>] extends [never]
  ? true
  : { 'contract methods no declaration serves': Exclude<HostMethod, Served<(typeof PRIMITIVES)[number]>> } = true;
void everyContractMethodDeclared;

export type PrimitiveName = (typeof PRIMITIVES)[number]['name'];

/** Declarations by name: a Map, so a name such as "constructor" finds nothing. */
export const PRIMITIVE_BY_NAME: ReadonlyMap<string, HostPrimitive> = indexByName(PRIMITIVES);

/** Names of the primitives that count against each call quota. */
export const CALLS_UNDER: Readonly<Record<'embedCalls' | 'llmCalls' | 'imageCalls', readonly string[]>> = {
  embedCalls: PRIMITIVES.filter((p) => p.quota === 'embedCalls').map((p) => p.name),
  llmCalls: PRIMITIVES.filter((p) => p.quota === 'llmCalls').map((p) => p.name),
  imageCalls: PRIMITIVES.filter((p) => p.quota === 'imageCalls').map((p) => p.name),
};

/** The plain primitives, as the prelude and the bench context build their methods from them. */
export const PLAIN_STUBS = plainStubs(PRIMITIVES);

function indexByName(list: readonly HostPrimitive[]): Map<string, HostPrimitive> {
  const byName = new Map<string, HostPrimitive>();
  const served = new Set<string>();
  for (const p of list) {
    if (byName.has(p.name)) throw new Error(`host primitive "${p.name}" is declared twice`);
    byName.set(p.name, p);
    for (const m of p.serves) {
      if (served.has(m)) throw new Error(`contract method ${m} is served by two host primitives`);
      served.add(m);
    }
  }
  return byName;
}
