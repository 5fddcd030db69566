export { createWebSearchTool, formatSerper, serperBaseUrl } from './web-search.js';
export type { WebSearchOptions } from './web-search.js';
export { createPerplexitySearchTool, formatPerplexity, perplexityBaseUrl, perplexityModels } from './perplexity-search.js';
export type { PerplexityModel, PerplexitySearchOptions } from './perplexity-search.js';
