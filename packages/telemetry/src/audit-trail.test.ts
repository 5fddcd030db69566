import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '@promptyard/core';
import type { AuditEntry } from '@promptyard/core';
import { auditLine, openAuditTrail } from './audit-trail.js';
import type { OpenedAuditTrail } from './audit-trail.js';
import { createPrometheusMetrics } from './prometheus-metrics.js';

const denied: AuditEntry = {
  identity: 'alice',
  client: 'cli',
  profile: 'default',
  server: 'github',
  kind: 'tool',
  name: 'github__delete_repo',
  decision: 'denied',
  reason: '[[policy]] #1 "no deletes"',
  durationMs: 0,
};

const allowed: AuditEntry = { profile: 'ops', kind: 'prompt', name: 'review', decision: 'allowed', durationMs: 12, client: undefined };

const linesOf = async (file: string): Promise<Record<string, unknown>[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('auditLine', () => {
  it('writes time first, then the fields in a fixed order, leaving out absent ones', () => {
    const time = new Date('2026-01-02T03:04:05.678Z');
    const shuffled = { durationMs: 3, decision: 'approved', name: 'deploy', kind: 'tool', profile: 'ops', argumentsDigest: 'ab' } as const;
    expect(auditLine(shuffled, time)).toBe(
      '{"time":"2026-01-02T03:04:05.678Z","profile":"ops","kind":"tool","name":"deploy","argumentsDigest":"ab","decision":"approved","durationMs":3}\n',
    );
    expect(auditLine(allowed, time)).not.toContain('client');
    // Only the contract's fields: anything else an object carries stays out.
    expect(auditLine({ ...allowed, secret: 'x' } as AuditEntry, time)).not.toContain('secret');
  });
});

describe('openAuditTrail', () => {
  let folder: string;
  const trails: OpenedAuditTrail[] = [];
  const open = async (options: Parameters<typeof openAuditTrail>[0]): Promise<OpenedAuditTrail> => {
    const trail = await openAuditTrail(options);
    trails.push(trail);
    return trail;
  };

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'audit-trail-'));
  });
  afterEach(async () => {
    await Promise.all(trails.splice(0).map((trail) => trail.close()));
    await rm(folder, { recursive: true, force: true });
  });

  it('appends one JSON line per entry to a file of mode 0600, flushed by close', async () => {
    const file = join(folder, 'audit.jsonl');
    const first = await open({ file, logger: silentLogger() });
    first.record(denied);
    first.record(allowed);
    await first.close();
    const second = await open({ file, logger: silentLogger() });
    second.record({ ...allowed, name: 'again' });
    await second.close();
    const lines = await linesOf(file);
    expect(lines.map((line) => line['name'])).toEqual(['github__delete_repo', 'review', 'again']);
    expect(lines[0]).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), ...denied });
    expect(Object.keys(lines[1] ?? {})).toEqual(['time', 'profile', 'kind', 'name', 'decision', 'durationMs']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('reopens its path after the file was renamed, on reopen() and on SIGHUP', async () => {
    const file = join(folder, 'audit.jsonl');
    const listeners = process.listenerCount('SIGHUP');
    const trail = await open({ file, logger: silentLogger() });
    const other = await open({ file: join(folder, 'other.jsonl'), logger: silentLogger() });
    expect(process.listenerCount('SIGHUP')).toBe(listeners + 1);
    trail.record({ ...allowed, name: 'one' });
    await rename(file, `${file}.1`);
    trail.record({ ...allowed, name: 'two' });
    await trail.reopen();
    trail.record({ ...allowed, name: 'three' });
    await rename(file, `${file}.2`);
    process.emit('SIGHUP', 'SIGHUP');
    trail.record({ ...allowed, name: 'four' });
    await trail.close();
    await other.close();
    expect(process.listenerCount('SIGHUP')).toBe(listeners);
    expect((await linesOf(`${file}.1`)).map((line) => line['name'])).toEqual(['one', 'two']);
    expect((await linesOf(`${file}.2`)).map((line) => line['name'])).toEqual(['three']);
    expect((await linesOf(file)).map((line) => line['name'])).toEqual(['four']);
  });

  it('fails at open naming a file whose folder does not exist, and what to do', async () => {
    const file = join(folder, 'missing', 'audit.jsonl');
    const opening = openAuditTrail({ file, logger: silentLogger() });
    await expect(opening).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await expect(opening).rejects.toThrow(`Cannot open the audit file ${JSON.stringify(file)} ([audit] file): ENOENT`);
    await expect(opening).rejects.toThrow('Create its folder');
  });

  it.skipIf(!existsSync('/dev/full'))('never throws at the caller when writing fails, and logs the failure once', async () => {
    const logged: string[] = [];
    const trail = await open({ file: '/dev/full', logger: createLogger({ write: (line) => logged.push(line) }) });
    trail.record(denied);
    await trail.reopen();
    trail.record(allowed);
    await trail.reopen();
    trail.record(allowed);
    await trail.close();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('audit trail: cannot write "/dev/full"; 1 audit line(s) lost');
    expect(logged[0]).toContain('ENOSPC');
  });

  it('writes lines to stderr without a file or with "-", and counts decisions', async () => {
    const written: string[] = [];
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const trail = await open({ stderr: (line) => written.push(line), metrics, logger: silentLogger() });
    const dash = await open({ file: '-', stderr: (line) => written.push(line), metrics, logger: silentLogger() });
    trail.record(denied);
    trail.record(denied);
    dash.record(allowed);
    expect(written).toHaveLength(3);
    expect(written.every((line) => line.endsWith('}\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    expect(JSON.parse(written[2] ?? '')).toMatchObject({ profile: 'ops', decision: 'allowed' });
    const { body } = await metrics.scrape();
    expect(body).toContain('promptyard_gateway_decisions_total{decision="denied",profile="default"} 2');
    expect(body).toContain('promptyard_gateway_decisions_total{decision="allowed",profile="ops"} 1');
  });

  it('counts decisions recorded to a file too', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const trail = await open({ file: join(folder, 'audit.jsonl'), metrics, logger: silentLogger() });
    trail.record(denied);
    expect((await metrics.scrape()).body).toContain('promptyard_gateway_decisions_total{decision="denied",profile="default"} 1');
  });
});
