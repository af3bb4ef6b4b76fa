/** @fleetdeck/contract: schemas, constants, messages and the permission table. No I/O. */
export * from './constants.js';
export * from './messages.js';
export * from './roles.js';
export * from './errors.js';
export * from './http.js';
export * from './schemas/common.js';
export * from './schemas/auth.js';
export * from './labels.js';
export * from './schemas/nodes.js';
export * from './mqtt.js';
export * from './schemas/groups.js';
export * from './schemas/ota.js';
export * from './ota-protocol.js';
export * from './schemas/stats.js';
export * from './fault-catalogue.js';
export * from './schemas/faults.js';
export * from './schemas/diagnostics.js';
