/**
 * Container image references re-tagged and moved between registries as Cluster API's
 * util/container does it (ModifyImageTag, ModifyImageRepository, SemverToOCIImageTag), after the
 * distribution/reference grammar: `[domain/]path[:tag][@digest]`, where the first path component
 * is a domain when it holds a `.` or a `:` or is `localhost`; without one the image is Docker
 * Hub's (`docker.io`, `library/` for a one-component path).
 */

const DOCKER_HUB = 'docker.io';
const OCI_TAG_DISALLOWED = /[^-a-zA-Z0-9_.]/g;

export interface ImageReference {
  domain: string;
  path: string;
  tag?: string;
  digest?: string;
}

/** A version as an OCI tag: every character a tag may not hold becomes `_` (`v1.32.0+k3s1` → `v1.32.0_k3s1`). */
export function semverToOciImageTag(version: string): string {
  return version.replace(OCI_TAG_DISALLOWED, '_');
}

/** The reference, normalized (Docker Hub's domain and `library/` filled in); undefined when it is not one. */
export function parseImageReference(image: string): ImageReference | undefined {
  const [named = '', digest, ...extra] = image.split('@');
  if (extra.length > 0 || named === '') return undefined;
  const lastSlash = named.lastIndexOf('/');
  const tagAt = named.lastIndexOf(':');
  const hasTag = tagAt > lastSlash;
  const name = hasTag ? named.slice(0, tagAt) : named;
  const tag = hasTag ? named.slice(tagAt + 1) : undefined;
  if (name === '' || tag === '' || /[A-Z]/.test(name.split('/').slice(1).join('/'))) return undefined;
  const [first = '', ...rest] = name.split('/');
  const isDomain = rest.length > 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  const domain = isDomain ? first : DOCKER_HUB;
  const path = isDomain ? rest.join('/') : rest.length === 0 && domain === DOCKER_HUB ? `library/${first}` : name;
  if (path === '' || path.split('/').some((component) => component === '')) return undefined;
  return { domain, path, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

function normalized(ref: ImageReference): string {
  return `${ref.domain}/${ref.path}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

/** Docker Hub's images without their implied domain and `library/` (FamiliarString). */
function familiar(ref: ImageReference): string {
  const path = ref.domain === DOCKER_HUB && ref.path.startsWith('library/') && ref.path.split('/').length === 2 ? ref.path.slice('library/'.length) : ref.path;
  const name = ref.domain === DOCKER_HUB ? path : `${ref.domain}/${path}`;
  return `${name}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

export type ImageChange = { image: string } | { error: string };

/** The image with the version as its tag (normalized); an image pinned by digest cannot be re-tagged. */
export function withImageTag(image: string, version: string): ImageChange {
  const ref = parseImageReference(image);
  if (!ref) return { error: `failed to parse image name "${image}"` };
  if (ref.digest) return { error: `image "${image}" uses digest as version, cannot update tag` };
  return { image: normalized({ domain: ref.domain, path: ref.path, tag: semverToOciImageTag(version) }) };
}

/** The image under another repository (its last path component kept, with its tag); it must be tagged. */
export function withImageRepository(image: string, repository: string): ImageChange {
  const ref = parseImageReference(image);
  if (!ref) return { error: `failed to parse image name "${image}"` };
  if (!ref.tag) return { error: `image "${image}" must be tagged` };
  const moved = parseImageReference(`${repository.replace(/\/+$/, '')}/${ref.path.split('/').pop() ?? ''}:${ref.tag}`);
  if (!moved) return { error: `failed to update repository name of "${image}" to "${repository}"` };
  return { image: familiar(moved) };
}
