/**
 * `[audit] file`, black-box: one JSON line per call decision (allowed, failed, denied under
 * `[[policy]]`) with who, through which profile, on what, the arguments' digest and the duration —
 * never an argument value; SIGHUP reopens the file (logrotate); decisions are counted on /metrics.
 */
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scrape, seriesValue } from '../../../test-support/metrics.js';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { cleanup, connectHttp, eventually, isAlive, startHttpGateway, startStdioGateway } from './harness.js';
import { outcome, twoServers } from './surface-config.js';

interface AuditLine {
  readonly time: string;
  readonly identity?: string;
  readonly client?: string;
  readonly profile: string;
  readonly server?: string;
  readonly kind: string;
  readonly name: string;
  readonly argumentsDigest?: string;
  readonly decision: string;
  readonly reason?: string;
  readonly durationMs: number;
}

const readLines = async (file: string): Promise<AuditLine[]> => {
  if (!existsSync(file)) return [];
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditLine);
};

/** Waits until `file` holds at least `count` lines. */
const linesOf = (file: string, count: number): Promise<AuditLine[]> =>
  eventually(
    () => readLines(file),
    (lines) => lines.length >= count,
  );

/** A value no line may hold, sent as an argument. */
const secret = `s3cret-${process.pid}-${Date.now()}`;

const auditToml = '[audit]\nfile = "audit.jsonl"\n';

afterEach(async () => {
  expect(await cleanup()).toEqual([]);
});

describe('[audit] file over stdio', () => {
  it('writes one line per decision, never an argument value, and reopens the file on SIGHUP', async () => {
    const config = twoServers(`${auditToml}\n[profiles.ops.servers.alpha]\n`);
    const gateway = await startStdioGateway({ config, args: ['--profile', 'ops'] });
    const file = join(dirname(gateway.configPath), 'audit.jsonl');
    const { client } = gateway;

    expect(await outcome(client, 'alpha_echo', { text: secret })).toBe(secret);
    expect(await outcome(client, 'alpha_add', { a: 40, b: 2 })).toBe('42');
    const lines = await linesOf(file, 2);
    expect(lines).toHaveLength(2);
    const [echo, add] = lines as [AuditLine, AuditLine];
    expect(echo).toMatchObject({ name: 'alpha_echo', decision: 'allowed', argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(add).toMatchObject({ name: 'alpha_add', decision: 'allowed', argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(add.argumentsDigest).not.toBe(echo.argumentsDigest);

    // logrotate: rename the file away, signal the gateway; it writes to a new file at the same path.
    await rename(file, `${file}.1`);
    process.kill(gateway.pid, 'SIGHUP');
    await eventually(
      () => Promise.resolve(existsSync(file)),
      (exists) => exists,
    );
    expect(await outcome(client, 'alpha_echo', { text: `${secret}-again` })).toBe(`${secret}-again`);
    // A backend that crashes mid-call: the call failed.
    expect(await outcome(client, 'alpha_crash')).toMatch(/crash|connection|closed/i);
    const after = await linesOf(file, 2);
    expect(after).toEqual([
      expect.objectContaining({ name: 'alpha_echo', decision: 'allowed' }),
      expect.objectContaining({ name: 'alpha_crash', decision: 'failed', argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    for (const line of [...lines, ...after]) {
      expect(Object.keys(line).slice(0, 1)).toEqual(['time']);
      expect(Date.parse(line.time)).not.toBeNaN();
      expect(line).toMatchObject({ profile: 'ops', server: 'alpha', kind: 'tool' });
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
      // A stdio caller is the user who started the gateway: no identity.
      expect(line).not.toHaveProperty('identity');
    }
    expect(await readLines(`${file}.1`)).toHaveLength(2);
    expect(isAlive(gateway.pid)).toBe(true);
    for (const path of [file, `${file}.1`]) expect(await readFile(path, 'utf8')).not.toContain(secret);
    expect(gateway.stderr.text).not.toContain('"decision"');
  });
});

describe('[audit] file over HTTP with [[policy]]', () => {
  let issuer: TestIssuer;
  let resources: string[] = [];
  beforeAll(async () => {
    issuer = await startTestIssuer({ resources: () => resources, members: { designer: ['design'] } });
  });
  afterAll(() => issuer.close());

  /** OAuth by the test issuer, and the designers' rule (with `rest` added to it). */
  const designers = (rest = ''): string => `[auth]
issuer = "${issuer.issuer}"
required_scopes = ["mcp"]

[[policy]]
name = "design"
groups = ["design"]
servers = ["alpha"]
${rest}`;

  it('writes who was allowed and who was denied, and counts decisions on /metrics', async () => {
    const policy = `${designers()}
[telemetry]
metrics = true
`;
    const gateway = await startHttpGateway({ config: twoServers(`${auditToml}\n${policy}`) });
    resources = [gateway.url];
    const file = join(dirname(gateway.configPath), 'audit.jsonl');
    const token = await issuer.token({ clientId: 'designer' });
    const designer = await connectHttp(gateway.url, { token });

    expect(await outcome(designer, 'alpha_echo', { text: secret })).toBe(secret);
    expect(await outcome(designer, 'beta_echo', { text: secret })).toContain('No tool "beta_echo" is available to you');
    const lines = await linesOf(file, 2);
    expect(lines).toEqual([
      expect.objectContaining({
        identity: 'designer',
        client: 'designer',
        profile: 'default',
        server: 'alpha',
        kind: 'tool',
        name: 'alpha_echo',
        decision: 'allowed',
      }),
      expect.objectContaining({
        identity: 'designer',
        profile: 'default',
        server: 'beta',
        kind: 'tool',
        name: 'beta_echo',
        decision: 'denied',
        reason: 'no [[policy]] rule allows it',
      }),
    ]);
    for (const line of lines) {
      expect(line.argumentsDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(typeof line.durationMs).toBe('number');
    }
    // The same arguments, the same digest, whichever tool they went to.
    expect(lines[0]?.argumentsDigest).toBe(lines[1]?.argumentsDigest);
    expect(await readFile(file, 'utf8')).not.toContain(secret);

    const body = await scrape(`${gateway.origin}/metrics`, { authorization: `Bearer ${token}` });
    expect(seriesValue(body, 'promptyard_gateway_decisions_total{decision="allowed",profile="default"}')).toBe(1);
    expect(seriesValue(body, 'promptyard_gateway_decisions_total{decision="denied",profile="default"}')).toBe(1);
  });

  it('admits a caller only to the profiles a [[policy]] rule allows it', async () => {
    const policy = `${designers('profiles = ["default", "ops"]')}

[profiles.ops.servers.alpha]

[profiles.secret.servers.alpha]
`;
    const gateway = await startHttpGateway({ config: twoServers(`${auditToml}\n${policy}`) });
    resources = [gateway.url];
    const token = await issuer.token({ clientId: 'designer' });
    const ops = await connectHttp(`${gateway.url}/ops`, { token });
    expect(await outcome(ops, 'alpha_echo', { text: 'hi' })).toBe('hi');
    const refused = await fetch(`${gateway.url}/secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await refused.json())).toContain('The profile \\"secret\\" is not available to you');
  });
});
