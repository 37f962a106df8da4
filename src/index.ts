export * from './approval/errors.js';
export * from './approval/payloads.js';
export * from './approval/types.js';
export * from './sandbox/index.js';
export * from './tools/index.js';
