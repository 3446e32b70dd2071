// Credentials inside addresses (redis://:password@host, https://user:key@host/v1) must never reach what automemo
// prints or writes: messages, logs, the journal, evidence, reports. One function does it, wherever text that may
// hold an address leaves the process.

/** Characters that end an address in running text. */
const ENDS = new Set([' ', '\t', '\n', '\r', '\f', '\v', '"', "'", '<', '>', '`']);
const SCHEME = /[a-z][a-z0-9+.-]{0,30}$/i;

/**
 * The text with the credentials of every address replaced by "***": from `scheme://` to the last "@" before the
 * address ends, so a password written raw with characters a URL would encode ("/", "@") is hidden too. Erring
 * towards hiding is fine; showing is not. One pass over the text (it may be a megabytes-long evidence line).
 */
export function redactCredentials(text: string): string {
  if (!text.includes('@')) return text;
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('://'); at !== -1; ) {
    let end = at + 3;
    let lastAt = -1;
    for (; end < text.length && !ENDS.has(text[end] as string); end++) if (text[end] === '@') lastAt = end;
    if (lastAt !== -1 && SCHEME.test(text.slice(Math.max(0, at - 31), at))) {
      out += `${text.slice(copied, at + 3)}***`;
      copied = lastAt;
    }
    at = text.indexOf('://', end);
  }
  return copied ? out + text.slice(copied) : text;
}
