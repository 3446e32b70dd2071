// format_for_llm: one block per retrieved unit — [Context i], Content (the summary), Full text (only for units
// expanded to details, and only when it adds to the summary), Time, Speaker, Entities. The released code hides
// the time of anything dated 2026 or later and prints the full text twice for short units; this port does not.
import type { Mau, MauDetails } from './mau.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function formatDate(t: number): string {
  const d = new Date(t);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

export interface FormatOptions {
  showTime: boolean;
  fullTextChars: number;
}

export function formatUnit(i: number, mau: Mau, details: MauDetails | undefined, o: FormatOptions): string {
  const raw = details?.fullText ?? details?.caption;
  const full = raw && raw.length > o.fullTextChars ? `${raw.slice(0, o.fullTextChars)}…` : raw;
  // A summary that is only the opening of the full text (the offline summary) is replaced by it, not repeated.
  const replaces = full !== undefined && full.startsWith(mau.summary);
  const lines = [`[Context ${i}]`, `Content: ${replaces ? full : mau.summary}`];
  if (full && !replaces) lines.push(`Full text: ${full}`);
  if (o.showTime) lines.push(`Time: ${formatDate(mau.timestamp)}`);
  if (mau.metadata.speaker) lines.push(`Speaker: ${mau.metadata.speaker}`);
  const entities = mau.metadata.entities.filter((e) => e !== mau.metadata.speaker).slice(0, 5);
  if (entities.length) lines.push(`Entities: ${entities.join(', ')}`);
  return lines.join('\n');
}
