export * from './approval/deferred/index.js';
export * from './approval/index.js';
export * from './fs/index.js';
export * from './sandbox/index.js';
export * from './staging/index.js';
export * from './tools/index.js';
