import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * The TCP ports a process listens on (Linux): the socket inodes among its open file descriptors
 * (`/proc/<pid>/fd` → `socket:[inode]`) matched against the LISTEN rows (state 0A) of
 * `/proc/net/tcp` and `/proc/net/tcp6`. Sorted, without duplicates.
 */
export async function tcpListenPorts(pid: number | 'self' = 'self'): Promise<number[]> {
  const inodes = await socketInodes(pid);
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of await listenRows(table)) if (inodes.has(row.inode)) ports.add(row.port);
  }
  return [...ports].sort((a, b) => a - b);
}

async function socketInodes(pid: number | 'self'): Promise<Set<string>> {
  const dir = `/proc/${pid}/fd`;
  const inodes = new Set<string>();
  for (const fd of await readdir(dir)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(await readlink(`${dir}/${fd}`));
      if (match?.[1]) inodes.add(match[1]);
    } catch {
      // closed between readdir and readlink
    }
  }
  return inodes;
}

/** `sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …` */
async function listenRows(table: string): Promise<Array<{ port: number; inode: string }>> {
  let text: string;
  try {
    text = await readFile(table, 'utf8');
  } catch {
    return []; // no IPv6 in this kernel
  }
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === '0A' && fields[9] !== undefined)
    .map((fields) => ({ port: Number.parseInt(fields[1]?.split(':')[1] ?? '', 16), inode: fields[9] ?? '' }));
}

/**
 * The filesystem paths of the Unix domain sockets a process has open (Linux): its socket inodes
 * matched against `/proc/net/unix` rows that carry a path (abstract sockets, `@…`, left out).
 */
export async function unixSocketPaths(pid: number | 'self' = 'self'): Promise<string[]> {
  const inodes = await socketInodes(pid);
  const text = await readFile('/proc/net/unix', 'utf8');
  const paths = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const inode = fields[6];
    const path = fields[7];
    if (inode !== undefined && path?.startsWith('/') && inodes.has(inode)) paths.add(path);
  }
  return [...paths].sort();
}
