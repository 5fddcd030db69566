import { describe, expect, it } from 'vitest';
import { findUnknownEnv, schemaEnvNames } from './config-env.js';

const schema = {
  limits: { max_file_bytes: { type: 'integer', default: 1 } },
  'transport.rate_limit': { burst: { type: 'integer', default: 20 } },
  'policy[]': { name: { type: 'string' } },
} as const;

describe('schemaEnvNames', () => {
  it('names one variable per key of the plain sections', () => {
    expect(schemaEnvNames(schema)).toEqual(['PROMPTYARD_LIMITS_MAX_FILE_BYTES', 'PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST']);
  });
});

describe('findUnknownEnv', () => {
  const known = [...schemaEnvNames(schema), 'PROMPTYARD_CONFIG'];

  it('warns about a misspelt variable with the closest known name', () => {
    expect(findUnknownEnv({ PROMPTYARD_LIMITS_MAX_FILE_BYTS: '1', PROMPTYARD_CONFIG: 'x', HOME: '/h' }, known)).toEqual([
      'environment variable PROMPTYARD_LIMITS_MAX_FILE_BYTS is not a setting and is ignored. Did you mean "PROMPTYARD_LIMITS_MAX_FILE_BYTES"?',
    ]);
  });

  it('warns without a hint when nothing is close, and skips what belongs to another program', () => {
    const env = { PROMPTYARD_ZZZZZZZZZZZZZZZZ: '1', PROMPTYARD_GATEWAY_CONFIG: 'g.toml', OTHER_LIMITS: '1' };
    expect(findUnknownEnv(env, known, { belongsElsewhere: (name) => name.startsWith('PROMPTYARD_GATEWAY_') })).toEqual([
      'environment variable PROMPTYARD_ZZZZZZZZZZZZZZZZ is not a setting and is ignored.',
    ]);
  });

  it('says nothing when every variable is known', () => {
    expect(findUnknownEnv({ PROMPTYARD_TRANSPORT_RATE_LIMIT_BURST: '5' }, known)).toEqual([]);
  });
});
