export { createProvider } from './notes-provider.js';
export type { NotesOptions } from './notes-provider.js';
