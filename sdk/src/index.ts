export * from './types.js';
export * from './limits.js';
