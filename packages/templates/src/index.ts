export { createArgumentsEngine, hasArgumentsPlaceholder } from './arguments-engine.js';
export { createLiquidEngine } from './liquid-engine.js';
export type { LiquidEngineOptions } from './liquid-engine.js';
export { createPlainEngine } from './plain-engine.js';
