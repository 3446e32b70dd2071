import { describe, expect, it } from 'vitest';
import { KvStore } from '../../../sandbox/primitives/kv.ts';

describe('KvStore', () => {
  it('stores JSON strings, lists keys by prefix, and accounts bytes on replace and delete', () => {
    const kv = new KvStore({ kvBytes: 1000, kvKeyChars: 16 });
    kv.set('a:1', '"x"');
    kv.set('a:2', '[1,2]');
    kv.set('b:1', 'null');
    expect(kv.get('a:2')).toBe('[1,2]');
    expect(kv.get('zzz')).toBeNull();
    expect(kv.keys('a:')).toEqual(['a:1', 'a:2']);
    const before = kv.usedBytes;
    kv.set('a:1', '"xxxxxxxx"');
    expect(kv.usedBytes).toBe(before + 2 * 7);
    expect(kv.delete('a:1')).toBe(true);
    expect(kv.delete('a:1')).toBe(false);
    expect(kv.size).toBe(2);
  });

  it('refuses what would exceed its quotas and keeps the old value', () => {
    const kv = new KvStore({ kvBytes: 100, kvKeyChars: 8 });
    kv.set('k', '"small"');
    expect(() => kv.set('k', `"${'x'.repeat(100)}"`)).toThrow(/quota kvBytes exceeded/);
    expect(kv.get('k')).toBe('"small"');
    expect(() => kv.set('a-very-long-key', '1')).toThrow(/quota kvKeyChars exceeded: key of 15 characters/);
    expect(() => kv.set('', '1')).toThrow(/kvKeyChars/);
  });
});
