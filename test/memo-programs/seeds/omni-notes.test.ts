// Omni-SimpleMem is edited through its config (it has no pipeline form): `notes` lets that edit keep the checker's
// feedback (the outcome's note), which the released code never stores — off by default, as released.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { resolveProgram } from '../../../memo-programs/registry.ts';
import { CODE_PROFILE } from '../../../memo-programs/seeds/omni-simplemem/config.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { partOf, payloadsOf } from '../../support/payloads.ts';
import { offlineServices } from '../../support/services.ts';

const dir = mkdtempSync(join(tmpdir(), 'omni-notes-'));
afterAll(async () => {
  await closeHostServices();
  rmSync(dir, { recursive: true, force: true });
});

describe("Omni-SimpleMem's notes setting", { timeout: 120_000 }, () => {
  it("keeps the outcome's feedback in a past task's unit when on, and is off as released", async () => {
    expect(CODE_PROFILE.notes).toBe(false);
    const omni = resolveProgram('omni-simplemem').path;
    const withNotes = join(dir, 'omni');
    cpSync(omni, withNotes, { recursive: true });
    const config = join(withNotes, 'config.ts');
    writeFileSync(config, readFileSync(config, 'utf8').replace(/^ {2}notes: false,$/m, '  notes: true,'));
    const services = offlineServices();
    const desk = await openNamed(`${join(repoRoot, 'bench', 'benchmarks', 'help-desk.ts')}:6`, { models: resolveModels({}, {}), images: services.images, seed: 0, onNote: () => undefined });
    const env = partOf(desk.env, { episodes: 20, tasks: 10 });
    const released = await payloadsOf(omni, env, services, { split: 'train' });
    const kept = await payloadsOf(withNotes, env, services, { split: 'train' });
    const text = (m: Map<string, { text: string }>) => [...m.values()].map((p) => p.text).join('\n');
    expect(text(released)).not.toContain('feedback: ');
    expect(text(kept)).toMatch(/feedback: .*please /);
  });
});
