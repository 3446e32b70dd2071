// Bounds of the API's numeric options, light on purpose: the CLI checks its arguments against them before it loads
// any engine.
export { MAX_SEED } from '../engine/run-seeds.ts';
export { MAX_WORKERS } from './worker-count.ts';
export { PROTOCOLS, protocolStatement } from '../engine/environment/protocol.ts';
export { MAX_REPEAT } from '../engine/study/study-file.ts';
