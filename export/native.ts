// The native packages of an exported package. isolated-vm and hnswlib-node compile with node-gyp when installed
// (isolated-vm takes 66–80 s here: its prebuilt binaries are on GitHub, which npm cannot reach). In `bundle` mode
// the copies automemo already built go inside the package (npm's bundleDependencies), trimmed to what runs:
// sources and build files are left out and the install step is removed, so `npm install <tarball>` only unpacks
// them. They are built for this platform and Node ABI (recorded in package.json); `source` mode leaves them
// ordinary dependencies that compile on install, for any platform.
// onnxruntime-node (the offline embedder's engine) is bundled the same way when the memory was embedded with it:
// only this platform's CPU build (45 MB of the 288 MB the npm package holds for every platform) and no install
// script (which would try to fetch GPU libraries from outside the npm registry).
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedPackageDir } from '../foundation/paths.ts';

export type NativeMode = 'bundle' | 'source';

interface Trim {
  /** Paths inside the package that are copied (the rest is sources, build files, examples). */
  keep: string[];
  /** Dependencies needed only to build it. */
  buildOnly: string[];
}

const NATIVE: Record<string, Trim> = {
  'isolated-vm': { keep: ['package.json', 'LICENSE', 'README.md', 'isolated-vm.js', 'isolated-vm.d.ts', 'include.js', 'out/isolated_vm.node'], buildOnly: ['prebuild-install'] },
  'hnswlib-node': { keep: ['package.json', 'LICENSE.txt', 'README.md', 'lib', 'build/Release/addon.node'], buildOnly: ['node-addon-api'] },
  // hnswlib-node finds its binary with these two (pure JS).
  bindings: { keep: ['.'], buildOnly: [] },
  'file-uri-to-path': { keep: ['.'], buildOnly: [] },
};

const ONNX_RUNTIME: Record<string, Trim> = {
  'onnxruntime-node': { keep: ['package.json', 'README.md', 'dist', `bin/napi-v6/${process.platform}/${process.arch}`], buildOnly: ['adm-zip', 'global-agent'] },
  // Its JavaScript API (pure JS).
  'onnxruntime-common': { keep: ['.'], buildOnly: [] },
};

export const NATIVE_PACKAGES = ['isolated-vm', 'hnswlib-node'];

export function installedVersion(pkg: string): string {
  return (JSON.parse(readFileSync(join(installedPackageDir(pkg), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Copies the built native packages (and with `onnxRuntime`, ONNX Runtime's) into `<outDir>/node_modules`; returns
 * the names to list in bundleDependencies.
 */
export function bundleNative(outDir: string, { onnxRuntime }: { onnxRuntime: boolean }): string[] {
  const packages = { ...NATIVE, ...(onnxRuntime ? ONNX_RUNTIME : {}) };
  const names = Object.keys(packages);
  for (const name of names) {
    const trim = packages[name] as Trim;
    const from = installedPackageDir(name);
    const to = join(outDir, 'node_modules', name);
    mkdirSync(to, { recursive: true });
    for (const rel of trim.keep) {
      const src = join(from, rel);
      if (!existsSync(src)) {
        if (rel.endsWith('.node')) throw new Error(`${src} is missing: ${name} is not built in automemo's node_modules (run npm ci)`);
        continue;
      }
      cpSync(src, rel === '.' ? to : join(to, rel), { recursive: true });
    }
    const pkgFile = join(to, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, unknown> & { dependencies?: Record<string, string> };
    // Nothing left to build: no install script, no node-gyp default (gypfile), no build-only dependencies.
    delete pkg.scripts;
    delete pkg.gypfile;
    delete pkg.devDependencies;
    for (const d of trim.buildOnly) delete pkg.dependencies?.[d];
    writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  }
  return names;
}

export function nativeTarget(mode: NativeMode): { mode: NativeMode; platform: string; arch: string; abi: string } {
  return { mode, platform: process.platform, arch: process.arch, abi: process.versions.modules };
}
