// Usage of host primitives by one program instance: calls, errors, bytes in and out, host milliseconds.

export interface PrimitiveUsage {
  calls: number;
  errors: number;
  bytesIn: number;
  bytesOut: number;
  ms: number;
}

export type UsageReport = Record<string, PrimitiveUsage>;

export class Meter {
  private readonly byName = new Map<string, PrimitiveUsage>();

  record(name: string, entry: { ok: boolean; bytesIn: number; bytesOut: number; ms: number }): void {
    let u = this.byName.get(name);
    if (!u) this.byName.set(name, (u = { calls: 0, errors: 0, bytesIn: 0, bytesOut: 0, ms: 0 }));
    u.calls++;
    if (!entry.ok) u.errors++;
    u.bytesIn += entry.bytesIn;
    u.bytesOut += entry.bytesOut;
    u.ms += entry.ms;
  }

  calls(name: string): number {
    return this.byName.get(name)?.calls ?? 0;
  }

  report(): UsageReport {
    const out: UsageReport = {};
    for (const [k, v] of [...this.byName].sort(([a], [b]) => a.localeCompare(b))) out[k] = { ...v, ms: round(v.ms) };
    return out;
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** Rough size of a JSON-able value, for metering; strings count their UTF-16 length. */
export function approxBytes(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number' || typeof value === 'boolean') return 8;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (Array.isArray(value)) {
    if (typeof value[0] === 'number') return value.length * 8;
    let n = 0;
    for (const v of value) n += approxBytes(v);
    return n;
  }
  if (typeof value === 'object') {
    let n = 0;
    for (const [k, v] of Object.entries(value)) n += k.length + approxBytes(v);
    return n;
  }
  return 0;
}
