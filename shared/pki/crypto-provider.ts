/**
 * Points @peculiar/x509 at Node's WebCrypto once, for every module that builds certificates, with
 * hashing, key export and signing done at once (immediate-subtle.ts, ADR 0133). @peculiar/x509
 * uses tsyringe, which needs a Reflect metadata polyfill loaded before it.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { immediateCrypto } from './immediate-subtle.js';

x509.cryptoProvider.set(immediateCrypto);

export { x509 };
