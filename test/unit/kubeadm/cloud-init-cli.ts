/**
 * Validates user data with Debian's cloud-init (22.4.2): `cloud-init devel render` with fake
 * instance data (resolves the Jinja header), then `cloud-init schema -c`. Missing cloud-init is
 * a failure unless CAPLESS_SKIP_CLOUD_INIT=1.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const INSTANCE_DATA = {
  ds: { meta_data: { local_hostname: 'ip-10-0-1-23.ec2.internal' } },
  v1: { local_hostname: 'ip-10-0-1-23' },
  local_hostname: 'ip-10-0-1-23',
};

export const skipCloudInit = process.env.CAPLESS_SKIP_CLOUD_INIT === '1';

export function cloudInitAvailable(): boolean {
  try {
    execFileSync('cloud-init', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

export const MISSING_CLOUD_INIT =
  'cloud-init is not installed: run `apt-get install -y cloud-init` (Debian 12 ships 22.4.2), ' +
  'or set CAPLESS_SKIP_CLOUD_INIT=1 to skip the schema checks';

export interface SchemaResult {
  valid: boolean;
  output: string;
  rendered: string;
}

/**
 * Renders the Jinja template with the fake instance data (`renderJinja`), or drops the
 * `## template: jinja` line (the documented fallback, one process fewer), then validates.
 */
export async function validateUserData(userData: string, options: { renderJinja: boolean }): Promise<SchemaResult> {
  const dir = mkdtempSync(join(tmpdir(), 'capless-cloud-init-'));
  const idata = join(dir, 'idata.json');
  const source = join(dir, 'userdata');
  const rendered = join(dir, 'rendered');
  writeFileSync(idata, JSON.stringify(INSTANCE_DATA));
  writeFileSync(source, userData);
  const renderedText = options.renderJinja
    ? (await run('cloud-init', ['devel', 'render', '--instance-data', idata, source])).stdout
    : userData.replace(/^## template: jinja\n/, '');
  writeFileSync(rendered, renderedText);
  try {
    const { stdout, stderr } = await run('cloud-init', ['schema', '-c', rendered]);
    return { valid: true, output: stdout + stderr, rendered: renderedText };
  } catch (error) {
    const output =
      error instanceof Error && 'stderr' in error
        ? String(error.stderr) + String(Reflect.get(error, 'stdout'))
        : String(error);
    return { valid: false, output, rendered: renderedText };
  }
}
