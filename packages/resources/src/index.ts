export { createDocProvider } from './doc-provider.js';
export type { DocOptions } from './doc-provider.js';
export { builtinLibraries } from './libraries.js';
export type { DocLibrary } from './libraries.js';
export { createProjectProvider } from './project-provider.js';
export type { ProjectOptions } from './project-provider.js';
export { renderCodeMap } from './builtin-code-map.js';
export type { CodeMapOptions } from './builtin-code-map.js';
