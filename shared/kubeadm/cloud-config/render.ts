/**
 * cloud-config user data for the three bootstrap roles, in Cluster API's exact layout
 * (bootstrap/kubeadm/pkg/cloudinit controlplane_init.go, controlplane_join.go, node.go):
 * a Jinja header, write_files (certificates, spec.files, the kubeadm file, the placeholder),
 * optional bootcmd, runcmd (pre, kubeadm && sentinel, post), then ntp, users, disk_setup,
 * fs_setup and mounts.
 */
import { TerminalError } from '../../errors/index.js';
import { certificateFiles, missingCertificates } from './certificate-files.js';
import {
  bootCommandsSection,
  commandEntries,
  diskSetupSection,
  fsSetupSection,
  indent,
  mountsSection,
  ntpSection,
  usersSection,
  writeFileEntries,
} from './sections.js';
import type { CloudConfigInput, CommonCloudConfigInput } from './types.js';

export const CLOUD_CONFIG_HEADER = '## template: jinja\n#cloud-config\n';
export const KUBEADM_INIT_CONFIG_PATH = '/run/kubeadm/kubeadm.yaml';
export const KUBEADM_JOIN_CONFIG_PATH = '/run/kubeadm/kubeadm-join-config.yaml';
export const SENTINEL_FILE = '/run/cluster-api/bootstrap-success.complete';
export const SENTINEL_COMMAND = `echo success > ${SENTINEL_FILE}`;
export const PLACEHOLDER_PATH = '/run/cluster-api/placeholder';
const PLACEHOLDER_CONTENT =
  'This placeholder file is used to create the /run/cluster-api sub directory in a way that is compatible with both Linux and Windows (mkdir -p /run/cluster-api does not work with Windows)';

const PLACEHOLDER_ENTRY =
  `\n-   path: ${PLACEHOLDER_PATH}\n    owner: root:root\n    permissions: '0640'\n    content: "${PLACEHOLDER_CONTENT}"`;

function verbosityFlag(verbosity: number | undefined): string {
  return verbosity === undefined ? '' : `--v ${verbosity}`;
}

function kubeadmFileEntry(path: string, content: string): string {
  return `\n-   path: ${path}\n    owner: root:root\n    permissions: '0640'\n    content: |\n${content}`;
}

function kubeadmFile(input: CloudConfigInput): string {
  if (input.role === 'init') {
    const docs = input.kubeadmDocuments;
    const content = `      ---\n${indent(6, docs.clusterConfiguration)}\n      ---\n${indent(6, docs.initConfiguration)}`;
    return kubeadmFileEntry(KUBEADM_INIT_CONFIG_PATH, content);
  }
  const join = indent(6, input.kubeadmDocuments.joinConfiguration);
  return kubeadmFileEntry(KUBEADM_JOIN_CONFIG_PATH, input.role === 'worker' ? `      ---\n${join}` : join);
}

function kubeadmCommand(input: CloudConfigInput): string {
  const flag = verbosityFlag(input.verbosity);
  if (input.role === 'init') {
    return `\n  - 'kubeadm init --config ${KUBEADM_INIT_CONFIG_PATH} ${flag} && ${SENTINEL_COMMAND}'`;
  }
  return `\n  - kubeadm join --config ${KUBEADM_JOIN_CONFIG_PATH} ${flag} && ${SENTINEL_COMMAND}`;
}

function optionalSections(input: CommonCloudConfigInput): string {
  return (
    ntpSection(input.ntp) +
    usersSection(input.users) +
    diskSetupSection(input.diskSetup) +
    fsSetupSection(input.diskSetup) +
    mountsSection(input.mounts)
  );
}

/**
 * Renders the user data.
 * @throws TerminalError `MissingCertificates` when an init or control-plane join lacks a
 *   certificate or key (check first with `missingCertificates`).
 */
export function renderCloudConfig(input: CloudConfigInput): string {
  let files = input.files ?? [];
  if (input.role !== 'worker') {
    const missing = missingCertificates(input.certificates);
    if (missing.length > 0) {
      throw new TerminalError('MissingCertificates', `cluster certificates missing: ${missing.join(', ')}`);
    }
    files = [...certificateFiles(input.certificates), ...files];
  }
  return (
    `${CLOUD_CONFIG_HEADER}\n` +
    `write_files:${writeFileEntries(files)}` +
    kubeadmFile(input) +
    PLACEHOLDER_ENTRY +
    bootCommandsSection(input.bootCommands) +
    `\nruncmd:${commandEntries(input.preKubeadmCommands)}` +
    kubeadmCommand(input) +
    commandEntries(input.postKubeadmCommands) +
    optionalSections(input) +
    '\n'
  );
}
