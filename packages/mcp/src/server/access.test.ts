import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { canonicalDigest, createLogger } from '@promptyard/core';
import type { AccessPolicy, AuditEntry, AuthOutcome, Authenticator } from '@promptyard/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHandlers } from '../handlers.js';
import { serveHttp } from '../http/serve-http.js';
import type { HttpHandle } from '../http/options.js';
import { createMcpServerBlueprint } from './blueprint.js';
import { memoryTree } from './test-skill-tree.js';

/** Ada may use what starts with "review" or is "a"; anyone else nothing: a policy in its plainest form. */
const policy: AccessPolicy = {
  decide: (caller, _kind, name) =>
    caller.subject === 'ada' && (name.startsWith('review') || name === 'a')
      ? { allowed: true, explicit: true, reason: 'allowed by test rule' }
      : { allowed: false, explicit: false, reason: 'no rule allows it' },
  approval: () => undefined,
  admits: () => undefined,
  version: 'test',
};

const authenticator: Authenticator = {
  authorizationServers: ['https://login.example.com'],
  requiredScopes: [],
  audience: undefined,
  authenticate: async (authorization): Promise<AuthOutcome> => {
    const subject = authorization?.replace(/^Bearer /, '');
    if (subject !== 'ada' && subject !== 'grace') return { ok: false, status: 401, description: 'send a token' };
    return { ok: true, identity: { subject, clientId: 'test-client', scopes: [], groups: [], claims: {} }, expiresAt: undefined };
  },
};

const files: Record<string, string> = {
  'review/SKILL.md': '---\nname: review\ndescription: Review code\n---\n\nReview it.\n',
  'review/refs/GUIDE.md': '# Guide\n',
  'deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy\n---\n\nShip it.\n',
};

const tree = memoryTree(files);

const handles: HttpHandle[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

const serve = async (audit: string[], trail: AuditEntry[] = [], profile?: string): Promise<HttpHandle> => {
  const handlers: McpHandlers = {
    name: 'access-test',
    version: '1.0.0',
    logger: createLogger({ level: 'error', write: () => {} }),
    prompts: {
      list: () => ({ items: [{ name: 'a' }, { name: 'b' }] }),
      get: async (name) => ({ messages: [{ role: 'user', content: { type: 'text', text: name } }] }),
    },
    complete: async () => ({ completion: { values: ['x', 'y'] } }),
    logs: { subscribe: () => () => {} },
    onListChanged: () => () => {},
    skills: { tree, onChanged: () => {} },
    access: {
      policy,
      audit: createLogger({ level: 'debug', scope: 'audit', write: (line) => audit.push(line) }),
      trail: { record: (entry) => trail.push(entry), close: async () => {} },
      profile,
      serverOf: (kind, name) => (kind === 'skill' ? `skills-of-${name.split('/')[2] ?? ''}` : undefined),
    },
  };
  const handle = await serveHttp(await createMcpServerBlueprint(handlers), {
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 10_000,
    auth: authenticator,
    authToken: 'static-secret',
  });
  handles.push(handle);
  return handle;
};

const connect = async (url: string, token: string): Promise<Client> => {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
};

describe('[[policy]] at the server adapter', () => {
  it('shows a caller only the skills it may use, and refuses the others unnamed', async () => {
    const audit: string[] = [];
    const trail: AuditEntry[] = [];
    const handle = await serve(audit, trail);
    const ada = await connect(handle.url, 'ada');
    const skills = new SkillsClient(ada);
    expect((await skills.list()).skills.map((skill) => skill.uri)).toEqual(['skill://review/SKILL.md']);
    expect((await ada.listResources()).resources.map((resource) => resource.uri)).toEqual(['skill://review/SKILL.md']);
    const { skill } = await skills.get('skill://review/SKILL.md');
    expect((await skills.read(skill, 'refs/GUIDE.md')).text).toBe('# Guide\n');
    await expect(skills.get('skill://deploy/SKILL.md')).rejects.toThrow('No skill "skill://deploy/SKILL.md" is available to you');
    await expect(ada.readResource({ uri: 'skill://deploy/SKILL.md' })).rejects.toThrow(
      'No skill "skill://deploy/SKILL.md" is available to you',
    );
    expect(
      audit.some((line) =>
        /access denied subject=ada client=test-client kind=skill name=skill:\/\/deploy\/SKILL.md reason="no rule allows it"/.test(line),
      ),
    ).toBe(true);
    expect(audit.some((line) => /access allowed subject=ada .*kind=skill name=skill:\/\/review\/refs\/GUIDE.md/.test(line))).toBe(true);

    // Refusals reach the audit trail (skills as resources); what is allowed is the caller's to record.
    const deployDenied = {
      decision: 'denied',
      identity: 'ada',
      client: 'test-client',
      profile: 'default',
      kind: 'resource',
      name: 'skill://deploy/SKILL.md',
      server: 'skills-of-deploy',
      reason: 'no rule allows it',
      durationMs: 0,
    };
    expect(trail.length).toBeGreaterThan(0);
    expect(trail.every((entry) => entry.decision === 'denied')).toBe(true);
    expect(trail).toContainEqual(deployDenied);

    const grace = await connect(handle.url, 'grace');
    expect((await new SkillsClient(grace).list()).skills).toEqual([]);
  });

  it('completes only what the caller may use, and holds the static token to the policy too', async () => {
    const trail: AuditEntry[] = [];
    const handle = await serve([], trail, 'ops');
    const ada = await connect(handle.url, 'ada');
    expect((await ada.complete({ ref: { type: 'ref/prompt', name: 'a' }, argument: { name: 'x', value: '' } })).completion.values).toEqual([
      'x',
      'y',
    ]);
    expect((await ada.complete({ ref: { type: 'ref/prompt', name: 'b' }, argument: { name: 'x', value: '' } })).completion.values).toEqual(
      [],
    );
    expect((await ada.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['a']);
    // The static token names no person: it is the caller "server-token", whom no rule here allows anything.
    const operator = await connect(handle.url, 'static-secret');
    expect((await operator.listPrompts()).prompts).toEqual([]);
    await expect(operator.getPrompt({ name: 'a', arguments: { topic: 'private' } })).rejects.toThrow('No prompt "a" is available to you');
    expect(trail).toEqual([
      {
        decision: 'denied',
        identity: 'server-token',
        client: undefined,
        profile: 'ops',
        kind: 'prompt',
        name: 'a',
        server: undefined,
        // The arguments' digest, never their values.
        argumentsDigest: canonicalDigest({ topic: 'private' }),
        reason: 'no rule allows it',
        durationMs: 0,
      },
    ]);
  });
});
