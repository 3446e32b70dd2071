// Model roles and where each gets its endpoint: config first, then AUTOMEMO_<ROLE>_* variables, then the
// OpenAI SDK's own OPENAI_BASE_URL / OPENAI_API_KEY. A role with no model name runs offline.
import { z } from 'zod';
import { redactCredentials } from '../redact.ts';
import type { EnvVars } from '../env-vars.ts';

export const ROLES = ['meta', 'executor', 'judge', 'memo', 'embedding'] as const;
export type Role = (typeof ROLES)[number];

export const RoleModelSchema = z
  .object({
    model: z.string().min(1),
    baseURL: z.string().url().optional(),
    apiKey: z.string().optional(),
    /** USD per million input / output tokens, for the cost ledger. */
    usdPerMInput: z.number().nonnegative().optional(),
    usdPerMOutput: z.number().nonnegative().optional(),
    /** USD per million cached prompt tokens (default: the input price). */
    usdPerMCached: z.number().nonnegative().optional(),
    /** How long one call may take (default transport.ts DEFAULT_TIMEOUT_MS); a reasoning model writing a program needs more. */
    timeoutMs: z.number().int().positive().max(2 ** 31 - 1).optional(),
  })
  .strict();
export type RoleModel = z.infer<typeof RoleModelSchema> & { role: Role };

export const ModelsConfigSchema = z.object(Object.fromEntries(ROLES.map((r) => [r, RoleModelSchema.partial().optional()]))).strict();
export type ModelsConfig = Partial<Record<Role, Partial<z.infer<typeof RoleModelSchema>>>>;

export type ResolvedModels = Record<Role, RoleModel | null>;

function envFor(role: Role, key: string, env: EnvVars): string | undefined {
  const v = env[`AUTOMEMO_${role.toUpperCase()}_${key}`];
  return v === undefined || v === '' ? undefined : v;
}

export function resolveModels(config: ModelsConfig = {}, env: EnvVars = process.env): ResolvedModels {
  const out = {} as ResolvedModels;
  for (const role of ROLES) {
    const c = config[role] ?? {};
    const model = c.model ?? envFor(role, 'MODEL', env);
    if (!model) {
      out[role] = null;
      continue;
    }
    const candidate = {
      model,
      baseURL: c.baseURL ?? envFor(role, 'BASE_URL', env) ?? (env.OPENAI_BASE_URL || undefined),
      apiKey: c.apiKey ?? envFor(role, 'API_KEY', env) ?? (env.OPENAI_API_KEY || undefined),
      usdPerMInput: c.usdPerMInput ?? numberEnv(envFor(role, 'USD_PER_M_INPUT', env), role, 'USD_PER_M_INPUT'),
      usdPerMOutput: c.usdPerMOutput ?? numberEnv(envFor(role, 'USD_PER_M_OUTPUT', env), role, 'USD_PER_M_OUTPUT'),
      usdPerMCached: c.usdPerMCached ?? numberEnv(envFor(role, 'USD_PER_M_CACHED', env), role, 'USD_PER_M_CACHED'),
      timeoutMs: c.timeoutMs ?? numberEnv(envFor(role, 'TIMEOUT_MS', env), role, 'TIMEOUT_MS'),
    };
    const parsed = RoleModelSchema.safeParse(Object.fromEntries(Object.entries(candidate).filter(([, v]) => v !== undefined)));
    if (!parsed.success) {
      throw new Error(`model for role "${role}" is misconfigured: ${z.prettifyError(parsed.error)}`);
    }
    out[role] = { ...parsed.data, role };
  }
  return out;
}

function numberEnv(v: string | undefined, role: Role, key: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`AUTOMEMO_${role.toUpperCase()}_${key} must be a non-negative number, got "${v}"`);
  return n;
}

/** 'model' when a role has a model, else 'offline': printed on every output. */
export function modeOf(model: RoleModel | null): 'model' | 'offline' {
  return model ? 'model' : 'offline';
}

export function describeModel(model: RoleModel | null): string {
  if (!model) return 'offline';
  return `${model.model}${model.baseURL ? ` @ ${redactCredentials(model.baseURL)}` : ''}`;
}
