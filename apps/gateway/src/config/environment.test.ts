import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './gateway-config.js';

const toml = '[servers.github]\nurl = "https://example.test/mcp"\nheaders = { Authorization = "Bearer ${PROMPTYARD_GITHUB_TOKEN}" }\n';

describe('gateway environment warnings', () => {
  it('warns about a misspelt PROMPTYARD_* variable with the closest name', () => {
    const config = parseGatewayConfig(toml, {
      file: 'gateway.toml',
      env: { PROMPTYARD_GATEWAY_LAZZY: 'true', PROMPTYARD_GITHUB_TOKEN: 't', PROMPTYARD_PORT: '0', PROMPTYARD_GATEWAY_CONFIG: 'x' },
    });
    expect(config.warnings).toEqual([
      'environment variable PROMPTYARD_GATEWAY_LAZZY is not a setting and is ignored. Did you mean "PROMPTYARD_GATEWAY_LAZY"?',
    ]);
  });

  it('has none when every variable is read (settings, short names, the ones the file refers to, start-up marks)', () => {
    const config = parseGatewayConfig(toml, {
      file: 'gateway.toml',
      env: { PROMPTYARD_GITHUB_TOKEN: 't', PROMPTYARD_TRANSPORT_PORT: '0', PROMPTYARD_LOG_LEVEL: 'debug', PROMPTYARD_STARTUP_MARKS: '1' },
    });
    expect(config.warnings).toBeUndefined();
  });

  it('shows the parser snippet and caret for a TOML syntax error', () => {
    expect(() => parseGatewayConfig('[servers.a]\ncommand = unquoted\n', { file: 'gateway.toml', env: {} })).toThrow(
      /gateway\.toml:2:11: invalid TOML: invalid value\n {4}1: {2}\[servers\.a\]\n {4}2: {2}command = unquoted\n {4} +\^/,
    );
  });
});
