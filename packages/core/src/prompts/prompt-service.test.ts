import { describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog/catalog.js';
import { PromptyardError } from '../errors/errors.js';
import { createLogger } from '../logging/logger.js';
import type { LogRecord } from '../logging/logger.js';
import { createPromptService } from './prompt-service.js';
import type { PromptArgument, PromptEntry } from '../contracts/types.js';

const entry = (
  name: string,
  args: PromptArgument[],
  render: PromptEntry['render'] = async (values) => ({
    messages: [{ role: 'user', content: { type: 'text', text: JSON.stringify(values) } }],
  }),
): PromptEntry => ({
  name,
  description: `The ${name} prompt`,
  arguments: args,
  origin: { file: `/prompts/${name}.md`, line: 1 },
  render,
});

const setup = (entries: PromptEntry[], options: { maxArgumentChars?: number; maxResponseBytes?: number; timeoutMs?: number } = {}) => {
  const catalog = createCatalog<PromptEntry>({ kind: 'prompt' });
  catalog.owner('test').replace(entries);
  const records: LogRecord[] = [];
  const logger = createLogger({ level: 'debug', write: () => {} });
  logger.subscribe((record) => records.push(record));
  const service = createPromptService({
    catalog,
    logger,
    limits: { maxArgumentChars: options.maxArgumentChars ?? 10_000, maxResponseBytes: options.maxResponseBytes ?? 1_000_000 },
    timeoutMs: options.timeoutMs ?? 1000,
  });
  return { service, records };
};

const text = (result: Awaited<ReturnType<ReturnType<typeof setup>['service']['get']>>): string => {
  const content = result.messages[0]?.content;
  return content?.type === 'text' ? content.text : '';
};

describe('createPromptService', () => {
  it('applies defaults and passes only declared arguments', async () => {
    const { service, records } = setup([
      entry('review', [
        { name: 'code', required: true },
        { name: 'lang', required: false, default: 'ts' },
      ]),
    ]);
    const result = await service.get('review', { code: 'x', extra: 'ignored' });
    expect(JSON.parse(text(result))).toEqual({ code: 'x', lang: 'ts' });
    expect(result.description).toBe('The review prompt');
    const ignored = records.filter((record) => record.fields['ignored'] !== undefined);
    expect(ignored.map((record) => [record.level, record.message, record.fields['ignored']])).toEqual([
      ['debug', 'ignoring arguments the prompt does not take', 'extra'],
    ]);
  });

  it('names every missing required argument and where it is declared', async () => {
    const { service } = setup([
      entry('review', [
        { name: 'code', required: true },
        { name: 'lang', required: true },
      ]),
    ]);
    const error = (await service.get('review', {}).then(
      () => undefined,
      (caught: unknown) => caught,
    )) as PromptyardError;
    expect(error).toBeInstanceOf(PromptyardError);
    expect(error.code).toBe('MISSING_ARGUMENTS');
    expect(error.message).toBe('Prompt "review" is missing required arguments "code" and "lang" (declared in /prompts/review.md:1).');
  });

  it("refuses a value outside an argument's enum, naming the allowed values", async () => {
    const { service } = setup([
      entry('review', [
        { name: 'code', required: true },
        { name: 'language', required: false, enum: ['python', 'typescript', 'rust'], default: 'typescript' },
        { name: 'size', required: false, enum: ['small', 'large'] },
      ]),
    ]);
    const refusal = (given: Record<string, unknown>) =>
      service.get('review', given).then(
        () => undefined,
        (caught: unknown) => caught as PromptyardError,
      );
    const error = await refusal({ code: 'x', language: 'cobol', size: 'larg' });
    expect(error?.code).toBe('INVALID_ARGUMENT');
    expect(error?.message).toBe(
      'Prompt "review": "language" must be one of "python", "typescript" or "rust", got "cobol"; "size" must be one of "small" or "large", got "larg" (did you mean "large"?) (declared in /prompts/review.md:1).',
    );
    expect(error?.data).toEqual({ name: 'review', allowed: { language: ['python', 'typescript', 'rust'], size: ['small', 'large'] } });
    // A long value is described by its length, not echoed.
    expect((await refusal({ code: 'x', language: 'p'.repeat(500) }))?.message).toContain('got a value of 500 characters');
    // Allowed values, an omitted argument and an optional one left empty render.
    expect(JSON.parse(text(await service.get('review', { code: 'x', language: 'rust', size: '' })))).toEqual({
      code: 'x',
      language: 'rust',
      size: '',
    });
    expect(JSON.parse(text(await service.get('review', { code: 'x' })))).toEqual({ code: 'x', language: 'typescript' });
  });

  it('suggests close names for an unknown prompt', async () => {
    const { service } = setup([entry('review', []), entry('git/commit', [])]);
    await expect(service.get('reviw', {})).rejects.toThrow(/Unknown prompt "reviw". Did you mean "review"\?/);
  });

  it('truncates long values and logs lengths, never values', async () => {
    const { service, records } = setup([entry('echo', [{ name: 'text', required: true }])], { maxArgumentChars: 5 });
    const result = await service.get('echo', { text: 'abcdefghij-secret' });
    expect(JSON.parse(text(result))).toEqual({ text: 'abcde' });
    const logged = JSON.stringify(records);
    expect(logged).toContain('argument truncated');
    expect(logged).toContain('"length":17');
    expect(logged).not.toContain('secret');
    expect(logged).not.toContain('abcde');
  });

  it('fails a render that exceeds the timeout instead of hanging', async () => {
    const slow = entry('slow', [], () => new Promise(() => {}));
    const { service } = setup([slow], { timeoutMs: 50 });
    await expect(service.get('slow', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('hands the render a signal that aborts at the deadline, or when the caller gives up', async () => {
    const signals: AbortSignal[] = [];
    const slow = entry('slow', [], (_values, options) => {
      if (options?.signal !== undefined) signals.push(options.signal);
      return new Promise(() => {});
    });
    const { service } = setup([slow], { timeoutMs: 50 });
    await expect(service.get('slow', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toMatchObject({ code: 'TIMEOUT' });

    const { service: patient } = setup([slow], { timeoutMs: 60_000 });
    const caller = new AbortController();
    const pending = patient.get('slow', {}, caller.signal);
    await expect.poll(() => signals.length).toBe(2);
    caller.abort(new Error('client went away'));
    expect(signals[1]?.aborted).toBe(true);
    expect(signals[1]?.reason).toMatchObject({ message: 'client went away' });
    void pending.catch(() => {});
  });

  it('refuses a rendered prompt over the response cap', async () => {
    const { service } = setup([entry('big', [{ name: 'text', required: true }])], { maxResponseBytes: 20 });
    await expect(service.get('big', { text: 'x'.repeat(100) })).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });

  it('counts the cap in UTF-8 bytes, not characters', async () => {
    const { service } = setup([entry('big', [{ name: 'text', required: true }])], { maxResponseBytes: 200 });
    const rendered = await service.get('big', { text: 'é'.repeat(90) });
    expect(rendered.messages[0]?.content).toMatchObject({ type: 'text' });
    await expect(service.get('big', { text: 'é'.repeat(120) })).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      data: { bytes: expect.any(Number) },
    });
  });

  it('completes from enum and default, prefix matches first', () => {
    const { service } = setup([
      entry('review', [{ name: 'lang', required: false, enum: ['python', 'typescript', 'javascript'], default: 'typescript' }]),
    ]);
    expect(service.complete('review', 'lang', 'script').values).toEqual(['typescript', 'javascript']);
    expect(service.complete('review', 'lang', 'Ja')).toEqual({ values: ['javascript'], total: 1, hasMore: false });
    expect(service.complete('review', 'other', '').values).toEqual([]);
    expect(() => service.complete('nope', 'lang', '')).toThrow(/Unknown prompt/);
  });
  it('completes from values seen before, those seen with the same context first, bounded and capped at 100', async () => {
    const { service } = setup([
      entry('deploy', [
        { name: 'env', required: true },
        { name: 'service', required: false },
        { name: 'tier', required: false, enum: ['gold', 'silver'] },
      ]),
    ]);
    await service.get('deploy', { env: 'staging', service: 'api' });
    await service.get('deploy', { env: 'production', service: 'web' });
    await service.get('deploy', { env: 'prod-eu', service: 'api', tier: 'gold' });
    await service.get('deploy', { env: 'x\ny' });
    expect(service.complete('deploy', 'env', '').values).toEqual(['prod-eu', 'production', 'staging']);
    expect(service.complete('deploy', 'env', 'prod', { service: 'web' }).values).toEqual(['production', 'prod-eu']);
    expect(service.complete('deploy', 'tier', '').values).toEqual(['gold', 'silver']);
    for (let index = 0; index < 120; index++) await service.get('deploy', { env: `env-${index}` });
    const many = service.complete('deploy', 'env', 'env-');
    expect(many.values).toHaveLength(20);
    expect(many).toMatchObject({ total: 20, hasMore: false });
    expect(many.values[0]).toBe('env-119');
  });

  it('remembers the values of the last 4,096 gets, however many prompts they used', async () => {
    const prompts = Array.from({ length: 5000 }, (_, index) => entry(`p${index}`, [{ name: 'topic', required: true }]));
    const { service } = setup(prompts);
    for (let index = 0; index < 5000; index++) await service.get(`p${index}`, { topic: `topic ${index}` });
    expect(service.complete('p0', 'topic', '').values).toEqual([]);
    expect(service.complete('p903', 'topic', '').values).toEqual([]);
    expect(service.complete('p904', 'topic', '').values).toEqual(['topic 904']);
    expect(service.complete('p4999', 'topic', '').values).toEqual(['topic 4999']);
  });
});
