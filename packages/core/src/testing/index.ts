export { createTestContext } from './checks.js';
export type { ContractCheck, TestContext, TextExpectation } from './checks.js';
export { promptSourceContract } from './prompts.js';
export type { PromptSourceContractOptions } from './prompts.js';
export { resourceProviderContract } from './resources.js';
export type { ResourceProviderContractOptions } from './resources.js';
export { toolProviderContract } from './tools.js';
export type { ToolProviderContractOptions } from './tools.js';
