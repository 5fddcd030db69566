export { createProvider, createResourceProvider } from './notes-resources.js';
export { createToolProvider } from './notes-tools.js';
export { createPromptSource } from './notes-prompts.js';
export type { NotesOptions } from './notes.js';
