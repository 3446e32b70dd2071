// Which Debian packages a command needs, from package.json's `automemo.apt` list: each entry names the capability
// it serves ("web": Chromium for the web environment and the viewer's browser tests; "queue": redis-server for
// Redis-backed workers), so `npm run demo` on LoCoMo installs neither. Node built-ins only: runs before npm ci.

/** The capabilities a command may ask for, and what each is for (said when one is misspelt). */
export const CAPABILITIES = { web: 'Chromium: the web environment, the viewer in a browser', queue: 'redis-server: jobs through Redis (--queue)' };

/** Capabilities from `--for web,queue` in argv; an unknown one is an error naming the known ones. */
export function capabilitiesFrom(argv) {
  const at = argv.indexOf('--for');
  if (at < 0) return [];
  const list = (argv[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = list.filter((c) => !Object.hasOwn(CAPABILITIES, c));
  if (!list.length || unknown.length) {
    throw new Error(`--for takes a list of ${Object.keys(CAPABILITIES).join(', ')}${unknown.length ? `; got ${unknown.join(', ')}` : ''}`);
  }
  return list;
}

/** The package names to install: entries for one of the capabilities whose probe file is absent. */
export function aptPackagesFor(entries, capabilities, exists) {
  const wanted = entries.filter((e) => capabilities.includes(e.for) && !exists(e.probe));
  return [...new Set(wanted.map((e) => e.package))];
}
