// The wire types and limits alone, for the server: no HTTP client comes with them.
export * from './types.js';
export * from './limits.js';
export * from './vocabulary.js';
export * from './durations.js';
export * from './format.js';
export * from './rules.js';
export * from './text.js';
export * from './slugs.js';
export * from './status-page.js';
export * from './event-text.js';
