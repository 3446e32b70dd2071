// What an abort reason or a thrown value says, in words, whatever it is. A caller may abort with anything (an object
// without a prototype, a symbol, an error whose message getter throws): String() of those throws a TypeError, and a
// stop must never fail on its own reason.
export function reasonText(reason: unknown, otherwise = 'aborted'): string {
  try {
    if (reason === undefined) return otherwise;
    if (reason instanceof Error) return String(reason.message);
    if (typeof reason === 'symbol') return reason.toString();
    return String(reason);
  } catch {
    return `${otherwise} (with a reason that cannot be shown)`;
  }
}
