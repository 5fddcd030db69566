export { clientCommandHelp, isClientCommand, runClientCommand } from './command/run.js';
export type { ClientCommandOptions } from './command/run.js';
