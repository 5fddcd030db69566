import { describe, expect, it } from 'vitest';
import { childEnvironment, GATEWAY_CHAIN_VARIABLE } from './child-env.js';

const parent = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  OPENAI_API_KEY: 'sk-test',
  HTTPS_PROXY: 'http://proxy:3128',
  PROMPTYARD_AUTH_TOKEN: 'secret',
  promptyard_transport: 'http',
  PROMPTYARD_GATEWAY_CONFIG: '/etc/gateway.toml',
  [GATEWAY_CHAIN_VARIABLE]: '123@abc',
  BASH_FUNC_x: '() { echo pwned; }',
  UNSET: undefined,
};

describe('childEnvironment', () => {
  it("passes the gateway's environment on without Promptyard's own variables, keeping the gateway chain", () => {
    expect(childEnvironment({ parent, inherit: true, env: {} })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      OPENAI_API_KEY: 'sk-test',
      HTTPS_PROXY: 'http://proxy:3128',
      [GATEWAY_CHAIN_VARIABLE]: '123@abc',
    });
  });

  it('lets the server env win over inherited values, but not over the chain', () => {
    const env = childEnvironment({ parent, inherit: true, env: { HOME: '/srv', EXTRA: '1', [GATEWAY_CHAIN_VARIABLE]: '' } });
    expect(env).toMatchObject({ HOME: '/srv', EXTRA: '1', [GATEWAY_CHAIN_VARIABLE]: '123@abc' });
  });

  it('gives only the minimal set plus env with inherit off', () => {
    const env = childEnvironment({ parent, inherit: false, env: { TOKEN: 't' } });
    expect(env).toEqual(
      process.platform === 'win32'
        ? { PATH: '/usr/bin', TOKEN: 't', [GATEWAY_CHAIN_VARIABLE]: '123@abc' }
        : { PATH: '/usr/bin', HOME: '/home/me', TOKEN: 't', [GATEWAY_CHAIN_VARIABLE]: '123@abc' },
    );
  });

  it('adds no chain when the gateway has none', () => {
    expect(childEnvironment({ parent: { PATH: '/bin' }, inherit: true, env: {} })).toEqual({ PATH: '/bin' });
  });
});
