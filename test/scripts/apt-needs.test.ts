// Debian packages are installed for the commands that need them: the LoCoMo demo needs neither Chromium nor Redis.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
// @ts-expect-error a plain .mjs script of the install step, without types
import { aptPackagesFor, capabilitiesFrom } from '../../scripts/apt-needs.mjs';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const entries = pkg.automemo.apt;
const nothingInstalled = () => false;
/** What `npm run <script>` asks apt for on a machine with none of the packages. */
const aptFor = (script: string): string[] => {
  const line = pkg.scripts[script] as string;
  const install = /node scripts\/ensure-install\.mjs([^&]*)/.exec(line)?.[1] ?? '';
  return aptPackagesFor(entries, capabilitiesFrom(install.trim().split(/\s+/)), nothingInstalled);
};

describe('Debian packages per command', () => {
  it('installs nothing for the demo and the data benchmarks, Chromium for web, Redis for the queue, both for the tests', () => {
    expect(aptFor('demo')).toEqual([]);
    expect(aptFor('bench:search')).toEqual([]);
    expect(aptFor('bench:web')).toEqual(['chromium-headless-shell', 'chromium']);
    expect(aptFor('bench:eval')).toEqual(['redis-server']);
    expect(aptFor('test')).toEqual(['chromium-headless-shell', 'chromium', 'redis-server']);
  });

  it('skips what is already there, and names the capabilities when one is misspelt', () => {
    expect(aptPackagesFor(entries, ['web', 'queue'], (p: string) => p.includes('chromium'))).toEqual(['redis-server']);
    expect(() => capabilitiesFrom(['--for', 'wbe'])).toThrow('--for takes a list of web, queue; got wbe');
    expect(() => capabilitiesFrom(['--for'])).toThrow('--for takes a list of web, queue');
  });
});
