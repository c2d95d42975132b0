/**
 * Points @peculiar/x509 at Node's WebCrypto (globalThis.crypto) once, for every module that
 * builds certificates. @peculiar/x509 uses tsyringe, which needs a Reflect metadata polyfill
 * loaded before it.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(globalThis.crypto);

export { x509 };
