export { createDocProvider } from './doc-provider.js';
export type { DocOptions } from './doc-provider.js';
export { builtinLibraries } from './libraries.js';
export type { DocLibrary } from './libraries.js';
