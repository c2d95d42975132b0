/**
 * Serializes kubeadm documents like the Kubernetes YAML codec: keys sorted alphabetically at
 * every level, empty structs as `{}`, explicit nulls kept (`taints: null`), unset fields omitted.
 */
import { stringify } from 'yaml';

export function toKubeadmYaml(document: Record<string, unknown>): string {
  return stringify(document, { sortMapEntries: true, lineWidth: 0, keepUndefined: false, indentSeq: false, singleQuote: true });
}
