import { beforeAll, describe, expect, it } from 'vitest';

/** Each cloud-init invocation takes 1–3 s (Python start-up) on a busy 2-core machine. */
const CLOUD_INIT_TIMEOUT_MS = 120_000;
import { renderCloudConfig } from '../../../shared/kubeadm/index.js';
import { cloudInitAvailable, MISSING_CLOUD_INIT, skipCloudInit, validateUserData } from './cloud-init-cli.js';
import { type RenderedRoles, renderRoles } from './fixtures.js';

const optionalSections = renderCloudConfig({
  role: 'worker',
  kubeadmDocuments: { joinConfiguration: 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\n' },
  files: [{ path: '/etc/b64', encoding: 'base64', append: true, content: 'aGk=' }],
  bootCommands: ['echo boot'],
  ntp: { enabled: true, servers: ['0.pool.ntp.org', 'time.google.com'] },
  users: [
    {
      name: 'capi',
      gecos: 'Cluster API',
      groups: 'sudo,adm',
      homeDir: '/home/capi',
      lockPassword: true,
      shell: '/bin/bash',
      primaryGroup: 'capi',
      sudo: 'ALL=(ALL) NOPASSWD:ALL',
      sshAuthorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB capi@example'],
    },
  ],
  diskSetup: {
    partitions: [
      { device: '/dev/nvme1n1', tableType: 'gpt', layout: true, overwrite: false },
      { device: '/dev/nvme2n1', tableType: 'mbr', diskLayout: [{ percentage: 50, partitionType: 'Linux' }, { percentage: 50 }] },
    ],
    filesystems: [
      { device: '/dev/nvme1n1', filesystem: 'ext4', label: 'etcd_disk', overwrite: false, extraOpts: ['-F', '-E', 'lazy_itable_init=1'] },
      { device: '/dev/nvme2n1', filesystem: 'xfs', label: 'data', partition: 'auto', replaceFS: 'ntfs' },
    ],
  },
  mounts: [['etcd_disk', '/var/lib/etcddisk'], ['data', '/data']],
});

describe('cloud-init schema validation (cloud-init devel render + schema -c)', () => {
  let roles: RenderedRoles;
  beforeAll(async () => {
    roles = await renderRoles('v1.32.0', 'ECDSA-P256');
  });

  it('cloud-init is installed', (context) => {
    if (skipCloudInit) context.skip('CAPLESS_SKIP_CLOUD_INIT=1: cloud-init schema checks turned off for this run');
    expect(cloudInitAvailable(), MISSING_CLOUD_INIT).toBe(true);
  }, CLOUD_INIT_TIMEOUT_MS);

  it('init, control-plane join, worker and a sample with every optional section are valid', async (context) => {
    if (skipCloudInit) context.skip('CAPLESS_SKIP_CLOUD_INIT=1: cloud-init schema checks turned off for this run');
    expect(cloudInitAvailable(), MISSING_CLOUD_INIT).toBe(true);
    const inputs = { init: roles.init, controlPlaneJoin: roles.controlPlaneJoin, worker: roles.worker, optionalSections };
    const results = await Promise.all(
      Object.values(inputs).map((userData, i) => validateUserData(userData, { renderJinja: i === 0 })),
    );
    Object.keys(inputs).forEach((name, i) => {
      const result = results[i];
      expect(result?.valid, `${name}: ${result?.output}`).toBe(true);
    });
    // Jinja rendered the node name from the instance data
    expect(results[0]?.rendered).toContain('ip-10-0-1-23.ec2.internal');
    expect(results[0]?.rendered.startsWith('#cloud-config')).toBe(true);
  }, CLOUD_INIT_TIMEOUT_MS);

  it('rejects broken input (lock_passwd: "yes", table_type: zfs) so the check can fail', async (context) => {
    if (skipCloudInit) context.skip('CAPLESS_SKIP_CLOUD_INIT=1: cloud-init schema checks turned off for this run');
    expect(cloudInitAvailable(), MISSING_CLOUD_INIT).toBe(true);
    const brokenUsers = optionalSections.replace('lock_passwd: true', 'lock_passwd: "yes"');
    const brokenDisk = optionalSections.replace('table_type: gpt', 'table_type: zfs');
    expect(brokenUsers).not.toBe(optionalSections);
    expect(brokenDisk).not.toBe(optionalSections);
    const [users, disk] = await Promise.all([
      validateUserData(brokenUsers, { renderJinja: false }),
      validateUserData(brokenDisk, { renderJinja: false }),
    ]);
    expect(users.valid).toBe(false);
    expect(users.output).toMatch(/lock_passwd/);
    expect(disk.valid).toBe(false);
    expect(disk.output).toMatch(/table_type/);
  }, CLOUD_INIT_TIMEOUT_MS);
});
