export { createSearchIndex, tokenizeIdentifier } from './search-index.js';
export type { SearchFields, SearchHit, SearchIndex, SearchIndexOptions, SearchOptions } from './search-index.js';
