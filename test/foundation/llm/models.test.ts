import { describe, expect, it } from 'vitest';
import { describeModel, modeOf, resolveModels } from '../../../foundation/llm/models.ts';

describe('resolveModels', () => {
  it('runs every role offline when nothing is configured', () => {
    const m = resolveModels({}, {});
    expect(Object.values(m).every((r) => r === null)).toBe(true);
    expect(modeOf(m.meta)).toBe('offline');
    expect(describeModel(m.memo)).toBe('offline');
  });

  it('takes role models from AUTOMEMO_<ROLE>_* and the endpoint from OPENAI_*', () => {
    const m = resolveModels(
      {},
      {
        AUTOMEMO_META_MODEL: 'big',
        AUTOMEMO_MEMO_MODEL: 'small',
        AUTOMEMO_MEMO_BASE_URL: 'http://127.0.0.1:9000/v1',
        AUTOMEMO_META_USD_PER_M_INPUT: '2.5',
        OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
        OPENAI_API_KEY: 'k',
      },
    );
    expect(m.meta).toEqual({ role: 'meta', model: 'big', baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'k', usdPerMInput: 2.5 });
    expect(m.memo?.baseURL).toBe('http://127.0.0.1:9000/v1');
    expect(m.executor).toBeNull();
    expect(describeModel(m.memo)).toBe('small @ http://127.0.0.1:9000/v1');
  });

  it('prefers config over the environment and names a misconfigured role', () => {
    expect(resolveModels({ judge: { model: 'cfg' } }, { AUTOMEMO_JUDGE_MODEL: 'env' }).judge?.model).toBe('cfg');
    expect(() => resolveModels({}, { AUTOMEMO_META_MODEL: 'm', OPENAI_BASE_URL: 'not a url' })).toThrow(/role "meta" is misconfigured/);
    expect(() => resolveModels({}, { AUTOMEMO_META_MODEL: 'm', AUTOMEMO_META_USD_PER_M_INPUT: 'cheap' })).toThrow(
      /AUTOMEMO_META_USD_PER_M_INPUT must be a non-negative number/,
    );
  });

  it('takes a role\'s call timeout from AUTOMEMO_<ROLE>_TIMEOUT_MS (a whole, positive number of milliseconds)', () => {
    expect(resolveModels({}, { AUTOMEMO_META_MODEL: 'm', AUTOMEMO_META_TIMEOUT_MS: '900000' }).meta?.timeoutMs).toBe(900_000);
    expect(resolveModels({ meta: { timeoutMs: 5000 } }, { AUTOMEMO_META_MODEL: 'm', AUTOMEMO_META_TIMEOUT_MS: '900000' }).meta?.timeoutMs).toBe(5000);
    expect(() => resolveModels({}, { AUTOMEMO_META_MODEL: 'm', AUTOMEMO_META_TIMEOUT_MS: '1.5' })).toThrow(/role "meta" is misconfigured/);
    expect(() => resolveModels({}, { AUTOMEMO_META_MODEL: 'm', AUTOMEMO_META_TIMEOUT_MS: 'soon' })).toThrow(/AUTOMEMO_META_TIMEOUT_MS must be/);
  });
});
