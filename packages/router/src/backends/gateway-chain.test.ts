import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkGatewayChain, configIdentity, GATEWAY_LOOP_MARK, MAX_GATEWAY_DEPTH } from './gateway-chain.js';
import { GATEWAY_CHAIN_VARIABLE } from '../sdk/child-env.js';

describe('checkGatewayChain', () => {
  it('lets the first gateway start and hands its children a chain naming it', () => {
    const verdict = checkGatewayChain('/etc/gw/a.toml', {}, 100);
    expect(verdict).toEqual({ refused: false, chain: `100:${configIdentity('/etc/gw/a.toml')}` });
  });

  it('refuses a gateway whose config is already up the chain, however the path is written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'promptyard-chain-'));
    const file = join(dir, 'gateway.toml');
    await writeFile(file, '');
    await symlink(file, join(dir, 'link.toml'));
    const first = checkGatewayChain(file, {}, 100);
    if (first.refused) throw new Error('the first gateway was refused');
    const second = checkGatewayChain(join(dir, 'other.toml'), { [GATEWAY_CHAIN_VARIABLE]: first.chain }, 200);
    if (second.refused) throw new Error('a gateway with another config was refused');
    const again = checkGatewayChain(join(dir, 'link.toml'), { [GATEWAY_CHAIN_VARIABLE]: second.chain }, 300);
    expect(again).toMatchObject({ refused: true });
    expect(again.refused && again.line).toMatch(
      new RegExp(
        `^${GATEWAY_LOOP_MARK} not starting: the gateway with pid 100 above this one already serves .*link\\.toml.* remove the server entry`,
      ),
    );
  });

  it(`refuses a gateway with ${MAX_GATEWAY_DEPTH} gateways above it`, () => {
    const chain = Array.from({ length: MAX_GATEWAY_DEPTH }, (_, index) => `${index + 1}:${configIdentity(`/c${index}.toml`)}`).join(',');
    const verdict = checkGatewayChain('/other.toml', { [GATEWAY_CHAIN_VARIABLE]: chain }, 9);
    expect(verdict.refused && verdict.line).toMatch(/4 gateways already run above this one \(at most 4\)/);
    expect(checkGatewayChain('/other.toml', { [GATEWAY_CHAIN_VARIABLE]: chain.split(',').slice(1).join(',') }, 9).refused).toBe(false);
  });
});
