const core = await import('/work/main/packages/core/dist/index.js');
const { createPromptFolderSource } = await import('/work/main/packages/prompts/dist/index.js');
const { createLiquidEngine, createArgumentsEngine, createPlainEngine } = await import('/work/main/packages/templates/dist/index.js');
const engines = { liquid: createLiquidEngine(), arguments: createArgumentsEngine(), plain: createPlainEngine() };
const src = createPromptFolderSource({ dir: '/work/main/bench/.data/prompts-10k', engines, logger: core.silentLogger() });
const catalog = core.createCatalog({ kind: 'prompt' }); catalog.owner('x').replace(await src.load());
const logger = core.createLogger({ level: process.env.LVL ?? 'info', write: process.env.NOWRITE ? () => {} : undefined });
const svc = core.createPromptService({ catalog, logger, limits: { maxArgumentChars: 10000, maxResponseBytes: 1e6 }, timeoutMs: 5000 });
const names = Array.from({ length: 2200 }, (_, i) => { const id = (i * 7919) % 10000; return `area-${id % 10}/topic-${Math.floor(id / 10) % 10}/prompt-${id}`; });
for (let r = 0; r < 3; r++) { const times = []; for (let i = 0; i < names.length; i++) { const t = performance.now(); await svc.get(names[i], { subject: 's' + i }); times.push(performance.now() - t); } times.sort((a, b) => a - b); console.error('p50 us', (times[1100] * 1000).toFixed(1)); }
