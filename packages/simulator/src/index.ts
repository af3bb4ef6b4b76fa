/** @fleetdeck/simulator: a simulated appliance fleet that speaks Fleetdeck's device protocol. */
export * from './fleet.js';
export * from './fleet-state.js';
export * from './mqtt-link.js';
export * from './api-client.js';
export * from './appliance-profiles.js';
export * from './node-spec.js';
export * from './payloads.js';
export * from './diagnostics.js';
export * from './prng.js';
export * from './ota/ota-agent.js';
export * from './ota/image-verifier.js';
export * from './ota/firmware-version.js';
