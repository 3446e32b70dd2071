// Durable key-value state of one program instance: JSON strings under a byte quota.
import { QuotaError, type Quotas } from './quotas.ts';

export class KvStore {
  private readonly map = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly quotas: Pick<Quotas, 'kvBytes' | 'kvKeyChars'>) {}

  private static size(key: string, value: string): number {
    return 2 * (key.length + value.length);
  }

  get(key: string): string | null {
    return this.map.get(key) ?? null;
  }

  set(key: string, json: string): void {
    if (key.length === 0 || key.length > this.quotas.kvKeyChars) {
      throw new QuotaError('kvKeyChars', `key of ${key.length} characters (allowed 1–${this.quotas.kvKeyChars})`);
    }
    const old = this.map.get(key);
    const next = this.bytes - (old === undefined ? 0 : KvStore.size(key, old)) + KvStore.size(key, json);
    if (next > this.quotas.kvBytes) {
      throw new QuotaError('kvBytes', `storing "${key.slice(0, 60)}" would use ${next} bytes of ${this.quotas.kvBytes}`);
    }
    this.map.set(key, json);
    this.bytes = next;
  }

  delete(key: string): boolean {
    const old = this.map.get(key);
    if (old === undefined) return false;
    this.map.delete(key);
    this.bytes -= KvStore.size(key, old);
    return true;
  }

  keys(prefix: string, limit = 100_000): string[] {
    const out: string[] = [];
    for (const k of this.map.keys()) {
      if (k.startsWith(prefix)) out.push(k);
      if (out.length >= limit) break;
    }
    return out.sort();
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.map.size;
  }

  entries(): [string, string][] {
    return [...this.map];
  }
}
