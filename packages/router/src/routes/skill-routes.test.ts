import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/backend.js';
import type { SkillHost } from './skill-routes.js';
import type { Skill } from '../sdk/upstream-skills.js';
import { createGatewaySkills } from './skill-routes.js';

const entry = (name: string, files: readonly string[] = []): Skill => ({
  uri: `skill://${name}/SKILL.md`,
  frontmatter: { name, description: `The ${name} skill` },
  resources: ['SKILL.md', ...files].map((file, index) => ({
    uri: `skill://${name}/${file}`,
    digest: `sha256:${String(index).repeat(64)}`,
    size: 10,
  })),
});

/** A ready server with skills; its reads answer with the URI asked, so routing shows. */
const server = (id: string, prefix: string | false, skills: readonly Skill[]): Backend =>
  ({
    id,
    config: { prefix },
    lists: { skills },
    upstream: {
      readResource: async (uri: string) => ({ contents: [{ uri, mimeType: 'text/markdown', text: `${id} ${uri}` }] }),
      skills: { readDirectory: async (uri: string) => [{ uri: `${uri}/GUIDE.md`, name: 'GUIDE.md' }] },
    },
  }) as unknown as Backend;

const routerOf = (backends: readonly Backend[], startup?: Promise<void>): SkillHost => ({
  skillServers: () => backends.map((backend) => ({ backend, timeoutMs: 1000 })),
  startup: () => startup,
});

const sourceOf = (backends: readonly Backend[], startup?: Promise<void>) => {
  const skills = createGatewaySkills(routerOf(backends, startup));
  if (!('source' in skills)) throw new Error('the gateway serves a source');
  return skills.source;
};

describe('createGatewaySkills', () => {
  it('answers during start-up once the servers still starting are done, as the other lists do', async () => {
    const backends: Backend[] = [];
    let started: () => void = () => {};
    const source = sourceOf(backends, new Promise<void>((resolve) => (started = resolve)));
    const listing = source.list(undefined);
    backends.push(server('docs', 'docs', [entry('review')]));
    started();
    expect((await listing).skills.map((skill) => skill['uri'])).toEqual(['skill://docs/review/SKILL.md']);
  });

  it("serves each server's skills under its prefix, the first keeping a URI two share", async () => {
    const source = sourceOf([
      server('docs', 'docs', [entry('review', ['refs/GUIDE.md'])]),
      server('plain', false, [entry('lint')]),
      server('again', false, [entry('lint')]),
    ]);
    const { skills } = await source.list(undefined);
    expect(skills.map((skill) => skill['uri'])).toEqual(['skill://docs/review/SKILL.md', 'skill://lint/SKILL.md']);
    expect((await source.get('skill://docs/review/SKILL.md'))?.['resources']).toEqual([
      { uri: 'skill://docs/review/SKILL.md', digest: `sha256:${'0'.repeat(64)}`, size: 10 },
      { uri: 'skill://docs/review/refs/GUIDE.md', digest: `sha256:${'1'.repeat(64)}`, size: 10 },
    ]);
    expect(await source.read('skill://lint/SKILL.md')).toEqual({ text: 'plain skill://lint/SKILL.md', mimeType: 'text/markdown' });
    expect(await source.listResources()).toEqual([
      { uri: 'skill://docs/review/SKILL.md', name: 'review', description: 'The review skill', mimeType: 'text/markdown' },
      { uri: 'skill://lint/SKILL.md', name: 'lint', description: 'The lint skill', mimeType: 'text/markdown' },
    ]);
  });

  it('reads files and folders through their server, only inside a listed skill', async () => {
    const source = sourceOf([server('docs', 'docs', [entry('review', ['refs/GUIDE.md'])])]);
    expect(await source.read('skill://docs/review/refs/GUIDE.md')).toEqual({
      text: 'docs skill://review/refs/GUIDE.md',
      mimeType: 'text/markdown',
    });
    expect(await source.readDirectory('skill://docs/review/refs', undefined)).toEqual({
      resources: [{ uri: 'skill://docs/review/refs/GUIDE.md', name: 'GUIDE.md' }],
    });
    expect(await source.read('skill://docs/other/SKILL.md')).toBeUndefined();
    expect(await source.read('skill://elsewhere/review/SKILL.md')).toBeUndefined();
    expect(await source.get('skill://review/SKILL.md')).toBeUndefined();
    expect(await source.read('skill://docs/review/../other/SKILL.md')).toBeUndefined();
    expect(await source.read('skill://docs/review/%2E%2E/other/SKILL.md')).toBeUndefined();
    expect(await source.read('skill://docs/review/%E0')).toBeUndefined();
  });
});
