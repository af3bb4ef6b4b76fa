// Builds Fleetdeck when any build output is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { root, staleParts } from './build-state.mjs';

const stale = staleParts();
if (stale.length > 0) {
  console.log(`Building Fleetdeck (${stale.join(', ')} out of date)...`);
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('fleetdeck: the build failed; see the errors above.');
    process.exit(result.status ?? 1);
  }
}
