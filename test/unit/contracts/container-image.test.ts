import { describe, expect, it } from 'vitest';
import { parseImageReference, semverToOciImageTag, withImageRepository, withImageTag } from '../../../shared/contracts/container-image.js';

describe('container image references (distribution/reference, normalized)', () => {
  it.for([
    ['registry.k8s.io/kube-proxy:v1.31.2', { domain: 'registry.k8s.io', path: 'kube-proxy', tag: 'v1.31.2' }],
    ['busybox', { domain: 'docker.io', path: 'library/busybox' }],
    ['bitnami/nginx:1.25', { domain: 'docker.io', path: 'bitnami/nginx', tag: '1.25' }],
    ['localhost:5000/team/kube-proxy:v1', { domain: 'localhost:5000', path: 'team/kube-proxy', tag: 'v1' }],
    ['localhost/kube-proxy', { domain: 'localhost', path: 'kube-proxy' }],
    ['registry.k8s.io/kube-proxy@sha256:abc', { domain: 'registry.k8s.io', path: 'kube-proxy', digest: 'sha256:abc' }],
    ['registry.k8s.io/kube-proxy:v1@sha256:abc', { domain: 'registry.k8s.io', path: 'kube-proxy', tag: 'v1', digest: 'sha256:abc' }],
    ['', undefined],
    ['registry.k8s.io//kube-proxy', undefined],
    ['registry.k8s.io/Kube-Proxy:v1', undefined],
    ['registry.k8s.io/kube-proxy:', undefined],
  ] as const)('%s', ([image, expected]) => {
    expect(parseImageReference(image)).toEqual(expected);
  });

  it.for([
    ['v1.32.0', 'v1.32.0'],
    ['v1.32.0+k3s1', 'v1.32.0_k3s1'],
    ['v1.32.0-rc.1', 'v1.32.0-rc.1'],
  ] as const)('the version %s as the tag %s', ([version, tag]) => {
    expect(semverToOciImageTag(version)).toBe(tag);
  });
});

describe('re-tagging and moving images (ModifyImageTag, ModifyImageRepository)', () => {
  it.for([
    ['registry.k8s.io/kube-proxy:v1.31.2', 'v1.32.0', { image: 'registry.k8s.io/kube-proxy:v1.32.0' }],
    ['registry.k8s.io/kube-proxy', 'v1.32.0', { image: 'registry.k8s.io/kube-proxy:v1.32.0' }],
    ['kube-proxy:v1.31.2', 'v1.32.0+build.1', { image: 'docker.io/library/kube-proxy:v1.32.0_build.1' }],
    ['registry.k8s.io/kube-proxy@sha256:abc', 'v1.32.0', { error: 'image "registry.k8s.io/kube-proxy@sha256:abc" uses digest as version, cannot update tag' }],
  ] as const)('%s tagged %s', ([image, version, expected]) => {
    expect(withImageTag(image, version)).toEqual(expected);
  });

  it.for([
    ['registry.k8s.io/kube-proxy:v1.32.0', 'mirror.example.com/k8s', { image: 'mirror.example.com/k8s/kube-proxy:v1.32.0' }],
    ['registry.k8s.io/kube-proxy:v1.32.0', 'mirror.example.com/k8s/', { image: 'mirror.example.com/k8s/kube-proxy:v1.32.0' }],
    ['registry.k8s.io/kube-proxy:v1.32.0', 'docker.io/library', { image: 'kube-proxy:v1.32.0' }],
    ['registry.k8s.io/kube-proxy:v1.32.0', 'myorg', { image: 'myorg/kube-proxy:v1.32.0' }],
    ['registry.k8s.io/kube-proxy', 'mirror.example.com', { error: 'image "registry.k8s.io/kube-proxy" must be tagged' }],
  ] as const)('%s under %s', ([image, repository, expected]) => {
    expect(withImageRepository(image, repository)).toEqual(expected);
  });
});
