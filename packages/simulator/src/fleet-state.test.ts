import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFleetState, saveFleetState, StateFileError, type FleetState } from './fleet-state.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-state-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const state: FleetState = {
  version: 1,
  seed: 3,
  nodes: [
    {
      node_id: 'A1B2C3D4E5F6',
      name: 'Kitchen Fridge E5F6',
      type: 'Refrigerator',
      model: 'FD-RF-340',
      fw_version: '2.1.0',
      tags: ['location:Pune', 'esp.serial_num:FDRF24100000001'],
      mqtt_username: 'A1B2C3D4E5F6',
      mqtt_password: 'pw',
      secret_key: 'sk',
      session: 4,
      claimed_by: 'enduser1.seed3@sim.fleetdeck.test',
    },
  ],
  users: [{ user_name: 'enduser1.seed3@sim.fleetdeck.test', password: 'Pw123456', user_id: 'u1' }],
};

describe('state file', () => {
  it('is undefined before the first run', async () => {
    expect(await loadFleetState(path.join(dir, 'fleet.json'))).toBeUndefined();
  });

  it('round-trips, in a new folder, readable only by its owner', async () => {
    const file = path.join(dir, 'nested', 'fleet.json');
    await saveFleetState(file, state);
    expect(await loadFleetState(file)).toEqual(state);
    const mode = (await fs.stat(file)).mode & 0o777;
    expect(mode).toBe(0o600);
    expect((await fs.readdir(path.dirname(file))).filter((name) => name.endsWith('.tmp'))).toEqual(
      [],
    );
  });

  it('explains a file that is not JSON or not a state file', async () => {
    const file = path.join(dir, 'fleet.json');
    await fs.writeFile(file, '{nope');
    await expect(loadFleetState(file)).rejects.toThrow(StateFileError);
    await fs.writeFile(file, JSON.stringify({ version: 2 }));
    await expect(loadFleetState(file)).rejects.toThrow(/is not a simulator state file/);
  });
});
