// Which automemo this process is: the package version and a digest of the code that decides a score (sandbox,
// evaluation, environments, the programs' library) and of the dependencies it pins. A worker on another machine
// compares it with the search's before it takes a job, so two versions never mix in one run's scores.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The folders whose code decides what a job returns. */
const SCORED_CODE = ['engine', 'sandbox', 'envs', 'memo-programs', 'foundation', 'api'];

let cached: string | undefined;

/** automemo's package version ("0.4.0"), as its package.json says. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

export function automemoVersion(): string {
  if (cached) return cached;
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
  const h = createHash('sha256').update(JSON.stringify(pkg.dependencies ?? {}));
  for (const file of SCORED_CODE.flatMap((d) => sourceFiles(join(root, d))).sort()) {
    h.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  cached = `${pkg.version}+${h.digest('hex').slice(0, 12)}`;
  return cached;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'node_modules') out.push(...sourceFiles(path));
    // Code and data files; a README changes no score, so editing one does not make workers refuse.
    else if (e.isFile() && /\.(?:ts|mts|js|mjs|json|jsonl)$/.test(e.name)) out.push(path);
  }
  return out;
}
