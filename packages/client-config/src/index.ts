export { clientCommandHelp, runClientCommand } from './command/run.js';
export type { ClientCommandOptions } from './command/run.js';
export { clientIds } from './clients/clients.js';
