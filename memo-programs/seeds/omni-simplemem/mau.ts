// The Multimodal Atomic Unit: one remembered thing. The hot tier keeps MAUs without their details; details and
// raw content live in the cold tier (ctx.kv) and are loaded on expansion.
import type { ImageRef } from 'automemo/contract';

export type Modality = 'text' | 'visual';

export interface MauMetadata {
  sessionId: string;
  source: string;
  speaker?: string;
  persons: string[];
  entities: string[];
  keywords: string[];
  tags: string[];
}

export interface Mau {
  id: string;
  /** Integer label in the vector index. */
  label: number;
  timestamp: number;
  modality: Modality;
  summary: string;
  /** Cold-tier key of the raw content. */
  rawPointer: string;
  metadata: MauMetadata;
  links: { prev?: string; next?: string; related: string[] };
  status: 'active' | 'archived';
  /** Set when the novelty gate was unsure (stored anyway, as the released code does). */
  uncertain?: boolean;
  image?: ImageRef;
}

export interface MauDetails {
  fullText?: string;
  caption?: string;
}

export function mauId(timestamp: number, label: number): string {
  return `mau_${timestamp}_${label.toString(36).padStart(6, '0')}`;
}
