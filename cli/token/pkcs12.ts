/**
 * Reads a PKCS#12 (.pfx/.p12) file — what Azure Key Vault, Windows and `openssl pkcs12 -export`
 * hand out — into the PEM certificate + PKCS#8 key the secret store keeps. pkijs walks the
 * structure (RFC 7292) and decrypts PBES2-protected certificate bags with WebCrypto; Node opens the
 * shrouded key bag itself. Loaded only by `profile add --certificate`.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { TokenError } from './errors.ts';

const KEY_BAG = '1.2.840.113549.1.12.10.1.1';
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const CERT_BAG = '1.2.840.113549.1.12.10.1.3';
const X509_CERT = '1.2.840.113549.1.9.22.1';

/** The certificate (PEM) and private key (unencrypted PKCS#8 PEM) in a PKCS#12 file. */
export async function readPkcs12(
  data: Uint8Array,
  password: string,
  where: string,
): Promise<{ certPem: string; keyPem: string }> {
  const refuse = (why: string, cause?: unknown): never => {
    throw new TokenError(
      'usage',
      `${where}: ${why}; or convert it with 'openssl pkcs12 -in ${where} -nodes -out cert.pem' and pass cert.pem`,
      { cause },
    );
  };
  const passwordBuffer = new TextEncoder().encode(password).buffer as ArrayBuffer;
  const certificates: Buffer[] = [];
  const keys: Buffer[] = [];
  try {
    const asn1 = asn1js.fromBER(new Uint8Array(data));
    if (asn1.offset === -1) refuse('not a PKCS#12 file');
    const pfx = new pkijs.PFX({ schema: asn1.result });
    await pfx.parseInternalValues({ password: passwordBuffer, checkIntegrity: true });
    const safe = pfx.parsedValue?.authenticatedSafe;
    if (!safe) return refuse('no authenticated safe inside');
    await safe.parseInternalValues({
      safeContents: safe.safeContents.map(() => ({ password: passwordBuffer })),
    });
    for (const content of safe.parsedValue?.safeContents ?? []) {
      for (const bag of content.value.safeBags) {
        const der = Buffer.from(bag.bagValue.toSchema().toBER(false));
        if (bag.bagId === CERT_BAG) {
          const certBag = bag.bagValue as pkijs.CertBag;
          if (certBag.certId === X509_CERT) {
            certificates.push(Buffer.from(certBag.parsedValue.toSchema().toBER(false)));
          }
        } else if (bag.bagId === SHROUDED_KEY_BAG) {
          keys.push(
            createPrivateKey({
              key: der,
              format: 'der',
              type: 'pkcs8',
              passphrase: password,
            }).export({ type: 'pkcs8', format: 'der' }),
          );
        } else if (bag.bagId === KEY_BAG) {
          keys.push(der);
        }
      }
    }
  } catch (err) {
    if (err instanceof TokenError) throw err;
    return refuse(
      `cannot open it (${err instanceof Error ? err.message : String(err)}: a wrong password, or legacy 3DES/RC2 encryption?)`,
      err,
    );
  }
  if (keys.length !== 1) refuse(`expected one private key, found ${keys.length}`);
  const key = createPrivateKey({ key: keys[0]!, format: 'der', type: 'pkcs8' });
  // The certificate of that key (a .pfx may carry the chain too).
  const cert = certificates.map((c) => new X509Certificate(c)).find((c) => c.checkPrivateKey(key));
  if (!cert) return refuse('no certificate for its private key');
  return {
    certPem: cert.toString(),
    keyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
