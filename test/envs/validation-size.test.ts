// Every built-in environment gives an evaluation at least 30 validation tasks, whatever part of it is chosen:
// with fewer, two evaluations of one program differ by more than programs do (visual:charts,scenes scored 9).
import { describe, expect, it } from 'vitest';
import { buildCatalog as visualCatalog } from '../../envs/visual/catalog.ts';
import { FAMILIES } from '../../envs/visual/families/index.ts';
import { buildCatalog as webCatalog } from '../../envs/web/catalog.ts';
import { SITES } from '../../envs/web/sites/index.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { LocomoEnvironment } from '../../envs/locomo/environment.ts';
import { templateRoles, validationPerTemplate } from '../../envs/split.ts';

const count = (roles: string[], role: string) => roles.filter((r) => r === role).length;

describe('validation tasks per environment', () => {
  it('visual:scenes has at least 30 (its real catalog), 2 update instances per template, and more test than validation', () => {
    const families = FAMILIES.filter((f) => f.name === 'scenes');
    const roles = visualCatalog(families, { seed: 0, instances: 20, trainShare: 0.2 }).map((e) => e.role);
    expect(count(roles, 'validation')).toBeGreaterThanOrEqual(30);
    expect(count(roles, 'update')).toBe(2 * (families[0]?.templates.length ?? 0));
    expect(count(roles, 'test')).toBeGreaterThan(count(roles, 'validation'));
  });

  it.each([[['charts', 'scenes']], [['charts']], [FAMILIES.map((f) => f.name)]])('visual:%s has at least 30 by the catalog\'s rule', (names) => {
    const templates = FAMILIES.filter((f) => names.includes(f.name)).reduce((n, f) => n + f.templates.length, 0);
    const ids = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const perTemplate = [...templateRoles(ids, 0, 0.2, validationPerTemplate(templates)).values()].filter((r) => r === 'validation').length;
    expect(perTemplate * templates).toBeGreaterThanOrEqual(30);
  });

  it.each([[['code']], [SITES.map((s) => s.name)]])('web:%s has at least 30, with the update instances unchanged', (names) => {
    const sites = SITES.filter((s) => names.includes(s.name));
    const roles = webCatalog(sites, { seed: 0, instances: 15, trainShare: 0.2 }).map((t) => t.role);
    expect(count(roles, 'validation')).toBeGreaterThanOrEqual(30);
    expect(count(roles, 'update')).toBe(2 * sites.reduce((n, s) => n + s.templates.length, 0));
  });

  it('locomo (the shipped conversations) has at least 30', async () => {
    const env = LocomoEnvironment.load({ models: resolveModels({}, {}) });
    const tasks = (await env.worlds('train')).reduce((n, w) => n + w.tasks.length, 0);
    expect(tasks).toBeGreaterThanOrEqual(30);
  });

  it('grows validation without moving an update instance, and never past half of what update leaves', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const before = templateRoles(ids, 0, 0.2);
    const after = templateRoles(ids, 0, 0.2, 6);
    const of = (m: Map<string, string>, role: string) => ids.filter((id) => m.get(id) === role);
    expect(of(after, 'update')).toEqual(of(before, 'update'));
    expect(of(after, 'validation')).toHaveLength(6);
    expect(of(templateRoles(ids, 0, 0.2, 50), 'validation')).toHaveLength(9);
  });
});
