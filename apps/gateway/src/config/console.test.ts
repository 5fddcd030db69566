import { describe, expect, it } from 'vitest';
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
});
