/**
 * The cloud-config sections, byte for byte as Cluster API's Go templates write them
 * (bootstrap/kubeadm/pkg/cloudinit: files.go, commands.go, boot_commands.go, ntp.go, users.go,
 * disk_setup.go, fs_setup.go, mounts.go). Each function returns text that starts with a newline
 * (or nothing), as the templates' `{{-` trimming produces.
 */
import type { DiskSetupSpec, NtpSpec } from '../types.js';
import type { CloudInitFile, CloudInitUser } from './types.js';

/** Cluster API `Indent`: every line prefixed, including the empty one after a final newline. */
export function indent(spaces: number, text: string): string {
  const pad = ' '.repeat(spaces);
  return pad + text.split('\n').join(`\n${pad}`);
}

/** Go `%q` for the strings users put in commands; JSON escapes are valid YAML double-quoted escapes. */
export function quoted(text: string): string {
  return JSON.stringify(text);
}

export function writeFileEntries(files: CloudInitFile[]): string {
  return files
    .map((file) => {
      let entry = `\n-   path: ${file.path}\n`;
      if (file.encoding) entry += `    encoding: "${file.encoding}"\n`;
      if (file.owner) entry += `    owner: ${file.owner}\n`;
      if (file.permissions) entry += `    permissions: '${file.permissions}'\n`;
      if (file.append) entry += '    append: true\n';
      return `${entry}    content: |\n${indent(6, file.content)}`;
    })
    .join('');
}

export function commandEntries(commands: string[] | undefined): string {
  return (commands ?? []).map((command) => `\n  - ${quoted(command)}`).join('');
}

export function bootCommandsSection(commands: string[] | undefined): string {
  if (!commands || commands.length === 0) return '';
  return `\nbootcmd:${commandEntries(commands)}`;
}

export function ntpSection(ntp: NtpSpec | undefined): string {
  if (!ntp) return '';
  const enabled = ntp.enabled === undefined ? '' : `enabled: ${ntp.enabled}\n  `;
  const servers = (ntp.servers ?? []).map((server) => `\n    - ${server}`).join('');
  return `\nntp:\n  ${enabled}servers:${servers}`;
}

function userEntry(user: CloudInitUser): string {
  const lines = [`\n  - name: ${user.name}`];
  const field = (key: string, value: string | boolean | undefined) => {
    if (value !== undefined && value !== '') lines.push(`\n    ${key}: ${value}`);
  };
  field('passwd', user.passwd);
  field('gecos', user.gecos);
  field('groups', user.groups);
  field('homedir', user.homeDir);
  // Upstream writes the literal `inactive: true` (cloud-init's schema wants a string of days here).
  if (user.inactive === true) lines.push('\n    inactive: true');
  field('lock_passwd', user.lockPassword);
  field('shell', user.shell);
  field('primary_group', user.primaryGroup);
  field('sudo', user.sudo);
  if (user.sshAuthorizedKeys && user.sshAuthorizedKeys.length > 0) {
    lines.push(`\n    ssh_authorized_keys:${user.sshAuthorizedKeys.map((key) => `\n      - ${key}`).join('')}`);
  }
  return lines.join('');
}

export function usersSection(users: CloudInitUser[] | undefined): string {
  if (!users || users.length === 0) return '';
  return `\nusers:${users.map(userEntry).join('')}`;
}

/** Cluster API `CloudInitPartitionType`; anything else (a GPT GUID) passes through. */
const PARTITION_TYPE_CODES: Record<string, string> = {
  Linux: '83',
  LinuxSwap: '82',
  LinuxRAID: 'fd',
  LVM: '8e',
  Fat32: '0c',
  NTFS: '07',
  LinuxExtended: '85',
};

type Partition = NonNullable<DiskSetupSpec['partitions']>[number];

function layout(partition: Partition): string {
  if (!partition.diskLayout || partition.diskLayout.length === 0) {
    return `\n    layout: ${partition.layout ?? false}`;
  }
  const entries = partition.diskLayout.map((entry) =>
    entry.partitionType
      ? `\n      - [${entry.percentage}, ${PARTITION_TYPE_CODES[entry.partitionType] ?? entry.partitionType}]`
      : `\n      - ${entry.percentage}`,
  );
  return `\n    layout:${entries.join('')}`;
}

export function diskSetupSection(diskSetup: DiskSetupSpec | undefined): string {
  const partitions = diskSetup?.partitions ?? [];
  if (partitions.length === 0) return '';
  const devices = partitions.map((partition) => {
    let text = `\n  ${partition.device}:`;
    if (partition.tableType) text += `\n    table_type: ${partition.tableType}`;
    text += layout(partition);
    if (partition.overwrite !== undefined) text += `\n    overwrite: ${partition.overwrite}`;
    return text;
  });
  return `\ndisk_setup:${devices.join('')}`;
}

export function fsSetupSection(diskSetup: DiskSetupSpec | undefined): string {
  const filesystems = diskSetup?.filesystems ?? [];
  if (filesystems.length === 0) return '';
  const entries = filesystems.map((fs) => {
    let text = fs.label ? `\n  - label: ${fs.label}\n    filesystem: ${fs.filesystem}` : `\n  - filesystem: ${fs.filesystem}`;
    text += `\n    device: ${fs.device}`;
    if (fs.partition) text += `\n    partition: ${fs.partition}`;
    if (fs.overwrite !== undefined) text += `\n    overwrite: ${fs.overwrite}`;
    if (fs.replaceFS) text += `\n    replace_fs: ${fs.replaceFS}`;
    if (fs.extraOpts && fs.extraOpts.length > 0) {
      text += `\n    extra_opts:${fs.extraOpts.map((opt) => `\n      - ${opt}`).join('')}`;
    }
    return text;
  });
  return `\nfs_setup:${entries.join('')}`;
}

export function mountsSection(mounts: string[][] | undefined): string {
  if (!mounts || mounts.length === 0) return '';
  const entries = mounts.map((mount) => `\n  - ${mount.map((item) => `- ${item}\n    `).join('')}`);
  return `\nmounts:${entries.join('')}`;
}
