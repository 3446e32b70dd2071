// The host services of an exported memory: the same primitives as a search (sandbox/primitives), with the
// models the caller chose (offline when none) and an embedding cache the memory carries with it.
import type { RoleModel } from '../../foundation/llm/models.ts';
import { describeModel } from '../../foundation/llm/models.ts';
import { createChatService } from '../../sandbox/primitives/chat.ts';
import { CachingEmbedder, OpenAIEmbedder, type TextEmbedder, UseLiteEmbedder } from '../../sandbox/primitives/embed.ts';
import { EMBED_BACKENDS, embedBackendFromEnv } from '../../sandbox/primitives/embed-backend.ts';
import { ImageStore } from '../../sandbox/primitives/images.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { ModelOption } from './inputs.ts';

export interface MemoryModels {
  memo: RoleModel | null;
  embedding: RoleModel | null;
}

export function roleModels(models: { memo?: ModelOption | null; embedding?: ModelOption | null } = {}): MemoryModels {
  return {
    memo: models.memo ? { ...models.memo, role: 'memo' } : null,
    embedding: models.embedding ? { ...models.embedding, role: 'embedding' } : null,
  };
}

export interface MemoryHost {
  services: HostServices;
  /** The cache every embedding goes through; saved with the memory. */
  embedder: CachingEmbedder;
}

/** `inner` replaces the role's embedder (the export passes automemo's disk-cached one). */
export function createMemoryHost(models: MemoryModels, inner?: TextEmbedder, images = new ImageStore()): MemoryHost {
  const embedder = new CachingEmbedder(inner ?? (models.embedding ? new OpenAIEmbedder(models.embedding) : new UseLiteEmbedder()));
  return {
    embedder,
    services: {
      embedder,
      chat: createChatService(models.memo),
      images,
      modes: {
        embed: models.embedding ? `model ${describeModel(models.embedding)}` : `offline (USE-lite 512-d, ${EMBED_BACKENDS[embedBackendFromEnv()].label})`,
        memo: models.memo ? `model ${describeModel(models.memo)}` : 'offline (extractive fallback)',
      },
    },
  };
}
