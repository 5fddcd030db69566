import { describe, expect, it } from 'vitest';
import { parseBind } from './console.js';
import { parseGatewayConfig } from './gateway-config.js';

const parse = (text: string) => parseGatewayConfig(`${text}\n[servers.a]\ncommand = "x"\n`, { file: 'gateway.toml', env: {} });

describe('[console]', () => {
  it('is off by default', () => {
    expect(parse('').console).toBeUndefined();
  });

  it('reads the admins from named [[policy]] rules and the session length', () => {
    const config = parse(
      [
        '[transport]\nauth_token = "t"',
        '[[policy]]\nname = "operators"\ngroups = ["ops"]\nservers = ["*"]',
        '[console]\nenabled = true\nadmins = ["operators"]\nsession_minutes = 30',
      ].join('\n'),
    );
    expect(config.console).toEqual({ admins: [{ groups: ['ops'] }], sessionMs: 30 * 60_000 });
  });

  it('needs the endpoint to authenticate its callers', () => {
    expect(() => parse('[console]\nenabled = true')).toThrow(
      /gateway\.toml:2: \[console\] needs the endpoint to authenticate its callers: set \[transport\] auth_token/,
    );
  });

  it('refuses an admins entry that names no [[policy]] rule, naming the rules there are', () => {
    expect(() =>
      parse('[transport]\nauth_token = "t"\n[[policy]]\nname = "design"\ntools = ["*"]\n[console]\nenabled = true\nadmins = ["ops"]'),
    ).toThrow(/\[console\] admins names "ops", but no \[\[policy\]\] rule has that name \(named rules: design\)/);
  });

  it('reads the client the browser signs in with through the [auth] issuer', () => {
    const config = parse(
      '[auth]\nissuer = "https://id.example"\n[console]\nenabled = true\nclient_id = "console"\nclient_secret = "s3cret"',
    );
    expect(config.console?.client).toEqual({ id: 'console', secret: 's3cret' });
  });

  it('refuses a client id without [auth], and a secret without a client id', () => {
    expect(() => parse('[transport]\nauth_token = "t"\n[console]\nenabled = true\nclient_id = "console"')).toThrow(
      /\[console\] client_id signs in through the identity provider of \[auth\]: set \[auth\] issuer/,
    );
    expect(() => parse('[transport]\nauth_token = "t"\n[console]\nenabled = true\nclient_secret = "s"')).toThrow(
      /\[console\] client_secret needs \[console\] client_id/,
    );
  });

  it('reads an address of its own and how browsers reach it', () => {
    const config = parse(
      '[transport]\nauth_token = "t"\n[console]\nenabled = true\nbind = "[::1]:9090"\npublic_url = "https://ops.example.com/"',
    );
    expect(config.console?.bind).toEqual({ host: '::1', port: 9090 });
    expect(config.console?.publicUrl).toBe('https://ops.example.com');
    expect(parseBind('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBind('localhost:65535')).toEqual({ host: 'localhost', port: 65_535 });
  });

  it('refuses a bind that is not host:port, and a public_url without bind or that is not an origin', () => {
    for (const bind of ['9090', '127.0.0.1', '127.0.0.1:70000', '::1:9090', 'http://127.0.0.1:9090'])
      expect(() => parse(`[transport]\nauth_token = "t"\n[console]\nenabled = true\nbind = "${bind}"`)).toThrow(
        /gateway\.toml:5: \[console\] bind must be host:port \(127\.0\.0\.1:9090, or \[::1\]:9090 for IPv6/,
      );
    expect(() => parse('[transport]\nauth_token = "t"\n[console]\nenabled = true\npublic_url = "https://ops.example.com"')).toThrow(
      /\[console\] public_url goes with \[console\] bind/,
    );
    expect(() =>
      parse(
        '[transport]\nauth_token = "t"\n[console]\nenabled = true\nbind = "127.0.0.1:0"\npublic_url = "https://ops.example.com/console"',
      ),
    ).toThrow(/\[console\] public_url must be an http\(s\) origin/);
  });
});
