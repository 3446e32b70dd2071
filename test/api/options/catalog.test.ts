// Options are declared once (api/options/catalog.ts): the command line's parser and help, the library's schema and
// the defaults all come from that one entry. A throwaway option added to the table shows up in each; every option
// of the real table is reachable from each of them; nothing else declares one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPTIONS } from '../../../api/options/catalog.ts';
import {
  COMMANDS,
  type CommandName,
  option,
  type OptionDeclaration,
  wholeNumber,
} from '../../../api/options/declare.ts';
import {
  byKey,
  checkOptions,
  commandLineSchema,
  defaultsOf,
  librarySchema,
  optionsHelp,
  parseArgsConfig,
  recordedOptions,
} from '../../../api/options/derive.ts';
import { baselines, check, evaluate, exportRun, search, study, UsageError } from '../../../api/index.ts';
import { RunOptionsSchema } from '../../../engine/search/run-options.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { automemoInProcess } from '../../support/cli.ts';

const throwaway = option({
  key: 'stepPause',
  value: wholeNumber(0, 60),
  commands: ['search'],
  default: 7,
  recorded: true,
  help: 'seconds to wait between steps (default {default})',
  cli: { flag: 'step-pause', arg: 'S' },
});
const table: readonly OptionDeclaration[] = [...OPTIONS, throwaway];

describe('an option added to the table', () => {
  it('is parsed, checked and mapped to its key on the command line', () => {
    expect(parseArgsConfig('search', table)['step-pause']).toEqual({ type: 'string' });
    expect(parseArgsConfig('eval', table)['step-pause']).toBeUndefined();
    const flags = commandLineSchema('search', table).parse({ 'step-pause': '12' });
    expect(byKey('search', flags, table)).toMatchObject({ stepPause: 12 });
    const bad = commandLineSchema('search', table).safeParse({ 'step-pause': '61' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['step-pause'],
      message: 'expected a whole number from 0 to 60',
    });
  });

  it('has its line in the help, its default written in', () => {
    expect(optionsHelp('search', table)).toMatch(/^ {2}--step-pause S +seconds to wait between steps \(default 7\)$/m);
    expect(optionsHelp('eval', table)).not.toContain('--step-pause');
  });

  it("is in the library's schema, with its default, and recorded in run.json's options", () => {
    expect(librarySchema('search', table).shape).toHaveProperty('stepPause');
    expect(() => checkOptions('search', { env: 'locomo', stepPause: 3 }, table)).not.toThrow();
    expect(() => checkOptions('search', { env: 'locomo', stepPause: -1 }, table)).toThrow(
      /^stepPause: expected a whole number from 0 to 60; got -1$/,
    );
    expect(defaultsOf('search', table)).toMatchObject({ stepPause: 7 });
    expect(recordedOptions('search', { stepPause: 3 }, (d) => d.recorded !== undefined, table)).toEqual({
      stepPause: 3,
    });
  });
});

/** The flags a command's --help lists (the lines that start with one). */
function helpFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}--([a-z][a-z-]*)/gm)].map((m) => m[1] as string).sort();
}

describe('the real table', () => {
  it("lists in each command's --help exactly the flags its parser takes (but hidden ones)", async () => {
    for (const command of COMMANDS) {
      const r = await automemoInProcess(command, '--help');
      expect(r.code, command).toBe(0);
      const hidden = (OPTIONS as readonly OptionDeclaration[])
        .filter((d) => d.commands.includes(command) && d.cli?.hidden)
        .map((d) => d.cli?.flag);
      const parsed = Object.keys(parseArgsConfig(command))
        .filter((f) => !hidden.includes(f))
        .sort();
      expect(helpFlags(r.out), command).toEqual(parsed);
      expect(parsed.length, command).toBeGreaterThan(0);
    }
  });

  it('gives no command two options of one key or one flag; flags are lowercase words joined by dashes', () => {
    for (const command of COMMANDS) {
      const mine = OPTIONS.filter((d) => (d.commands as readonly string[]).includes(command));
      const keys = mine.map((d) => d.key);
      const flags = mine.flatMap((d) => ('cli' in d && d.cli ? [d.cli.flag] : []));
      expect(new Set(keys).size, command).toBe(keys.length);
      expect(new Set(flags).size, command).toBe(flags.length);
      for (const f of flags) expect(f).toMatch(/^[a-z]+(-[a-z]+)*$/);
    }
  });

  it('shows every default it declares in the help, and requires options only of commands that take them', () => {
    for (const d of OPTIONS as readonly OptionDeclaration[]) {
      for (const command of d.required ?? []) expect(d.commands).toContain(command);
      if (d.default === undefined || typeof d.default === 'boolean' || typeof d.default === 'object' || !d.cli)
        continue;
      for (const command of d.commands)
        expect(optionsHelp(command), `${d.key} in ${command}`).toMatch(
          new RegExp(`--${d.cli.flag} .*\\b${String(d.default)}\\b`, 's'),
        );
    }
  });

  it('records in run.json only what the run format holds, and a resume changes only recorded options', () => {
    const format = Object.keys(RunOptionsSchema.shape);
    for (const d of OPTIONS as readonly OptionDeclaration[]) {
      if (d.recorded !== undefined) expect(format, d.key).toContain(d.recorded === true ? d.key : d.recorded);
      if (d.resumable) expect(d.recorded, d.key).toBeDefined();
    }
  });

  it("refuses a bad value of every option at each library call's edge, naming it", async () => {
    const calls: Partial<Record<CommandName, (o: Record<string, unknown>) => Promise<unknown>>> = {
      search: (o) => search(o),
      eval: (o) => evaluate(o as never),
      baselines: (o) => baselines(o as never),
      check: (o) => check(o as never),
      export: (o) => exportRun(o as never),
      study: (o) => study(o),
    };
    const required = (command: string) => ({
      env: command === 'study' ? ['locomo'] : 'locomo',
      program: 'bm25',
      run: 'no-such-run',
      out: 'no-such-folder',
    });
    for (const [command, call] of Object.entries(calls)) {
      const library = (OPTIONS as readonly OptionDeclaration[]).filter(
        (d) => d.commands.includes(command as CommandName) && !d.cliOnly,
      );
      expect(library.length).toBeGreaterThan(0);
      for (const d of library) {
        const given = {
          ...Object.fromEntries(Object.entries(required(command)).filter(([k]) => library.some((l) => l.key === k))),
          [d.key]: Symbol('bad'),
        };
        const refused = await call(given).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(refused, `${command} ${d.key}`).toBeInstanceOf(UsageError);
        expect((refused as Error).message, `${command} ${d.key}`).toMatch(new RegExp(`^${d.key}: `));
      }
    }
  });

  it('is the only place an option is declared: no parseArgs configuration or option schema elsewhere', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) sources.push(path);
      }
    };
    walk(join(repoRoot, 'cli'));
    walk(join(repoRoot, 'api'));
    const offenders = sources
      .filter((p) => !relative(repoRoot, p).startsWith(join('api', 'options')))
      .filter((p) => {
        const text = readFileSync(p, 'utf8');
        return (
          /type: '(string|boolean)'/.test(text) ||
          (/\bparseArgs\(/.test(text) && !p.endsWith(join('cli', 'args.ts'))) ||
          /\bintOption\(|OptionsSchema = z/.test(text)
        );
      })
      .map((p) => relative(repoRoot, p));
    expect(offenders).toEqual([]);
  });

  it('gives the command line its own defaults where they differ from the library (workers)', () => {
    const workers = byKey('eval', {}).workers;
    expect(typeof workers).toBe('number');
    expect(byKey('eval', { workers: 0 }).workers).toBe(0);
    expect(z.number().int().min(0).safeParse(workers).success).toBe(true);
  });
});
