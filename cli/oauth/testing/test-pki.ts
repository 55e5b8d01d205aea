import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Certificates for tests, made with the openssl CLI in `dir`. */
export interface TestPki {
  /** The test CA (PEM), for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** TLS certificate and key for the listed host names, signed by the CA. */
  serverCert: string;
  serverKey: string;
}

/**
 * A throwaway CA and a TLS certificate for `hosts`, so a spawned CLI can talk real HTTPS to
 * `login.microsoftonline.us` and friends on loopback (trusting the CA through NODE_EXTRA_CA_CERTS).
 */
export function makeTestPki(dir: string, hosts: string[]): TestPki {
  const file = (name: string) => path.join(dir, name);
  selfSigned(dir, 'ca', '/CN=get-token test CA', [
    'basicConstraints=critical,CA:TRUE',
    'keyUsage=critical,keyCertSign',
  ]);
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    `/CN=${hosts[0]}`,
  ]);
  writeFileSync(file('server.ext'), `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}\n`);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  ]);
  return {
    caFile: file('ca.pem'),
    serverCert: readFileSync(file('server.pem'), 'utf8'),
    serverKey: readFileSync(file('server.key'), 'utf8'),
  };
}

/** A self-signed certificate + RSA key for an app registration, as PEM files in `dir`. */
export function makeAppCertificate(
  dir: string,
  name: string,
  password?: string,
): { certFile: string; keyFile: string; bundleFile: string; certPem: string } {
  selfSigned(dir, name, `/CN=${name}`);
  let keyFile = path.join(dir, `${name}.key`);
  if (password !== undefined) {
    openssl(dir, [
      'pkcs8',
      '-topk8',
      '-in',
      `${name}.key`,
      '-out',
      `${name}.enc.key`,
      '-passout',
      `pass:${password}`,
    ]);
    keyFile = path.join(dir, `${name}.enc.key`);
  }
  const certFile = path.join(dir, `${name}.pem`);
  const certPem = readFileSync(certFile, 'utf8');
  const bundleFile = path.join(dir, `${name}.bundle.pem`);
  writeFileSync(bundleFile, certPem + readFileSync(keyFile, 'utf8'));
  return { certFile, keyFile, bundleFile, certPem };
}

/**
 * The same certificate and key as a PKCS#12 file (OpenSSL 3 defaults: PBES2, AES-256-CBC; `args`
 * such as `-legacy` or `-certpbe PBE-SHA1-RC2-128` choose other schemes), named `file` in `dir`.
 */
export function makeAppPkcs12(
  dir: string,
  name: string,
  password: string,
  args: string[] = [],
  file = path.join(dir, `${name}.pfx`),
): string {
  openssl(dir, [
    'pkcs12',
    '-export',
    ...args,
    '-in',
    `${name}.pem`,
    '-inkey',
    `${name}.key`,
    '-out',
    file,
    '-passout',
    `pass:${password}`,
  ]);
  return file;
}

/** A self-signed certificate `<name>.pem` and its unencrypted RSA key `<name>.key`, valid 2 days. */
function selfSigned(dir: string, name: string, subject: string, extensions: string[] = []): void {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-subj',
    subject,
    ...extensions.flatMap((extension) => ['-addext', extension]),
  ]);
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}
