/** Runs the real openssl CLI for the PKI tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function openssl(args: string[], input?: string): string {
  return execFileSync('openssl', args, { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Writes files into a fresh temporary directory and returns their paths by name. */
export function writeTempFiles(files: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'capless-pki-'));
  const paths: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, content);
    paths[name] = path;
  }
  return paths;
}

export function pathOf(paths: Record<string, string>, name: string): string {
  const path = paths[name];
  if (path === undefined) throw new Error(`no temp file ${name}`);
  return path;
}
