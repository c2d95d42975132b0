export type * from './object-store.js';
export type * from './work-queue.js';
export * from './clock.js';
export * from './logger.js';
export * from './runtime-extensions.js';
