import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './gateway-config.js';

const parse = (text: string) => parseGatewayConfig(text, { file: '/etc/gw/gateway.toml', env: { LINEAR_SECRET: 's3cret' } });
const problems = (text: string): string => {
  try {
    parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a config error');
};

describe('auth = "oauth"', () => {
  it('reads the grant, client, scopes and redirect port; by default a person logs in with dynamic registration', () => {
    const config = parse(
      '[servers.linear]\nurl = "https://mcp.linear.app/mcp"\nauth = "oauth"\n\n[servers.ci]\nurl = "https://ci.example.com/mcp"\nauth = "oauth"\n[servers.ci.oauth]\ngrant = "client_credentials"\nclient_id = "ci"\nclient_secret = "${LINEAR_SECRET}"\nscopes = ["deploy"]\nredirect_port = 33418\n',
    );
    expect(config.servers[0]?.oauth).toEqual({ grant: 'authorization_code', scopes: [] });
    expect(config.servers[1]?.oauth).toEqual({
      grant: 'client_credentials',
      clientId: 'ci',
      clientSecret: 's3cret',
      scopes: ['deploy'],
      redirectPort: 33418,
    });
    expect(parse('[servers.a]\nurl = "https://a.example.com/mcp"\n').servers[0]?.oauth).toBeUndefined();
  });

  it('says what to change when the settings cannot work', () => {
    const message = problems(
      '[servers.a]\ncommand = "x"\nauth = "oauth"\n\n[servers.b]\nurl = "https://b.example.com/mcp"\nauth = "oauth"\nheaders = { Authorization = "Bearer x" }\n[servers.b.oauth]\ngrant = "client_credentials"\nclient_secret = "s"\nscope = ["x"]\n\n[servers.c]\nurl = "https://c.example.com/mcp"\nauth = "bearer"\n\n[servers.d]\nurl = "https://d.example.com/mcp"\n[servers.d.oauth]\nclient_id = "d"\n',
    );
    expect(message).toContain('server "a": auth = "oauth" needs a url');
    expect(message).toContain('server "b": has both auth = "oauth" and an Authorization header');
    expect(message).toContain('server "b": unknown key "scope" in oauth (did you mean "scopes"?)');
    expect(message).toContain('server "b": oauth.grant = "client_credentials" needs oauth.client_id and oauth.client_secret');
    expect(message).toContain('server "c": auth must be "oauth"');
    expect(message).toContain('server "d": has an [oauth] table but no auth = "oauth"');
  });
});
