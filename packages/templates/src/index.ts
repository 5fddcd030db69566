export { createArgumentsEngine, hasArgumentsPlaceholder } from './arguments-engine.js';
export { createJinjaEngine } from './jinja-engine.js';
export type { JinjaEngineOptions } from './jinja-engine.js';
export { createLiquidEngine } from './liquid-engine.js';
export type { LiquidEngineOptions } from './liquid-engine.js';
export { createMustacheEngine } from './mustache-engine.js';
export type { MustacheEngineOptions } from './mustache-engine.js';
export { createPlainEngine } from './plain-engine.js';
