/**
 * Reads a PKCS#12 (.pfx/.p12) file — what Azure Key Vault, Windows and `openssl pkcs12 -export`
 * hand out — into the PEM certificate + PKCS#8 key the secret store keeps. pkijs walks the
 * structure (RFC 7292) and decrypts PBES2-protected certificate bags with WebCrypto; Node opens the
 * shrouded key bag itself. Files that use the legacy PKCS#12 schemes (RC2/3DES, `openssl pkcs12
 * -legacy`, OpenSSL 1.x, older Windows exports) have their MAC checked and those parts decrypted by
 * ./legacy-pbe.ts instead; files without them take the pkijs path unchanged. Loaded only by
 * `profile add --certificate`.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { TokenError } from './errors.ts';
import { decryptLegacyPbe, isLegacyPbe, LegacyPbeError, verifyPkcs12Mac } from './legacy-pbe.ts';

const KEY_BAG = '1.2.840.113549.1.12.10.1.1';
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const CERT_BAG = '1.2.840.113549.1.12.10.1.3';
const X509_CERT = '1.2.840.113549.1.9.22.1';
const DATA = '1.2.840.113549.1.7.1';
const ENCRYPTED_DATA = '1.2.840.113549.1.7.6';

/** The pkcs-12PbeParams of a legacy scheme (RFC 7292 Appendix C): salt and iteration count. */
function pbeParams(params: unknown): { salt: Uint8Array; iterations: number } {
  const seq = params instanceof asn1js.Sequence ? params.valueBlock.value : [];
  const [salt, iterations] = seq;
  if (!(salt instanceof asn1js.OctetString) || !(iterations instanceof asn1js.Integer)) {
    throw new LegacyPbeError('corrupt', 'malformed pkcs-12PbeParams');
  }
  return { salt: new Uint8Array(salt.getValue()), iterations: iterations.valueBlock.valueDec };
}

/**
 * The EncryptedData in `info`, parsed from a copy: pkijs retags the ASN.1 it parses in place, and
 * pkijs itself parses the original later.
 */
function encryptedDataOf(info: pkijs.ContentInfo): pkijs.EncryptedData {
  return pkijs.EncryptedData.fromBER((info.content as asn1js.Sequence).toBER(false));
}

/**
 * The encryption algorithms of the file's encrypted safes and shrouded key bags, as far as they are
 * readable without the password. A structure it cannot read gives none, so pkijs reports it as it
 * always did.
 */
function encryptionAlgorithms(pfx: pkijs.PFX): pkijs.AlgorithmIdentifier[] {
  const authSafe = pfx.authSafe.content;
  if (pfx.authSafe.contentType !== DATA || !(authSafe instanceof asn1js.OctetString)) return [];
  try {
    return pkijs.AuthenticatedSafe.fromBER(authSafe.getValue()).safeContents.flatMap((info) => {
      if (info.contentType === ENCRYPTED_DATA) {
        return [encryptedDataOf(info).encryptedContentInfo.contentEncryptionAlgorithm];
      }
      if (info.contentType !== DATA || !(info.content instanceof asn1js.OctetString)) return [];
      return pkijs.SafeContents.fromBER(info.content.getValue())
        .safeBags.filter((bag) => bag.bagId === SHROUDED_KEY_BAG)
        .map((bag) => (bag.bagValue as pkijs.PKCS8ShroudedKeyBag).encryptionAlgorithm);
    });
  } catch {
    return [];
  }
}

const PBES2 = '1.2.840.113549.1.5.13';
// Far above what exporters write (OpenSSL 2,048, Windows 2,000, Java's keytool 10,000): a file
// asking for more would keep the CLI busy for minutes deriving keys before any error could show.
const MAX_ITERATIONS = 1_000_000;

/** The iteration count of PBES2's PBKDF2 parameters (RFC 8018 A.2), if `params` holds one. */
function pbes2Iterations(params: unknown): number | undefined {
  if (!(params instanceof asn1js.Sequence)) return undefined;
  const kdf = params.valueBlock.value[0];
  const kdfParams = kdf instanceof asn1js.Sequence ? kdf.valueBlock.value[1] : undefined;
  const count = kdfParams instanceof asn1js.Sequence ? kdfParams.valueBlock.value[1] : undefined;
  return count instanceof asn1js.Integer ? count.valueBlock.valueDec : undefined;
}

/**
 * Iterations asked for by an encryption algorithm, a legacy scheme's or PBES2's; `undefined` when
 * unreadable here (decrypting it later reports what is wrong).
 */
function algorithmIterations(algorithm: pkijs.AlgorithmIdentifier): number | undefined {
  try {
    if (isLegacyPbe(algorithm.algorithmId)) return pbeParams(algorithm.algorithmParams).iterations;
  } catch {
    return undefined;
  }
  return algorithm.algorithmId === PBES2 ? pbes2Iterations(algorithm.algorithmParams) : undefined;
}

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
    // Every derivation the file asks for that is readable without the password: its MAC's, its
    // encrypted safes' and its shrouded keys'.
    const algorithms = encryptionAlgorithms(pfx);
    const iterations = Math.max(
      pfx.macData?.iterations ?? 1,
      ...algorithms.map((a) => algorithmIterations(a) ?? 1),
    );
    if (iterations > MAX_ITERATIONS) {
      refuse(
        `it asks for ${iterations.toLocaleString('en')} iterations of password derivation, more than the ${MAX_ITERATIONS.toLocaleString('en')} accepted (exporters write 2,000–10,000)`,
      );
    }
    // The password encoding a legacy file's MAC accepted, which also decrypts its legacy parts;
    // undefined for a file without them (pkijs checks its MAC and decrypts it as it always did).
    let legacyPassword: Uint8Array | undefined;
    if (
      pfx.authSafe.content instanceof asn1js.OctetString &&
      algorithms.some((a) => isLegacyPbe(a.algorithmId))
    ) {
      const content = new Uint8Array(pfx.authSafe.content.getValue());
      if (!pfx.macData) return refuse('it has no MAC to check the password against');
      legacyPassword = verifyPkcs12Mac(
        {
          digestOid: pfx.macData.mac.digestAlgorithm.algorithmId,
          digest: new Uint8Array(pfx.macData.mac.digest.getValue()),
          salt: new Uint8Array(pfx.macData.macSalt.getValue()),
          iterations: pfx.macData.iterations ?? 1,
        },
        content,
        password,
      );
    }
    await pfx.parseInternalValues({
      password: passwordBuffer,
      checkIntegrity: legacyPassword === undefined,
    });
    const safe = pfx.parsedValue?.authenticatedSafe;
    if (!safe) return refuse('no authenticated safe inside');
    if (legacyPassword) {
      // Legacy-encrypted safes become plain data safes for pkijs to walk as before.
      const pw = legacyPassword;
      safe.safeContents = safe.safeContents.map((info) => {
        if (info.contentType !== ENCRYPTED_DATA) return info;
        const encrypted = encryptedDataOf(info);
        const algorithm = encrypted.encryptedContentInfo.contentEncryptionAlgorithm;
        if (!isLegacyPbe(algorithm.algorithmId)) return info;
        const plain = decryptLegacyPbe(
          algorithm.algorithmId,
          pbeParams(algorithm.algorithmParams),
          pw,
          new Uint8Array(encrypted.encryptedContentInfo.getEncryptedContent()),
        );
        return new pkijs.ContentInfo({
          contentType: DATA,
          content: new asn1js.OctetString({ valueHex: plain }),
        });
      });
    }
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
        } else if (
          bag.bagId === SHROUDED_KEY_BAG &&
          legacyPassword &&
          isLegacyPbe((bag.bagValue as pkijs.PKCS8ShroudedKeyBag).encryptionAlgorithm.algorithmId)
        ) {
          // EncryptedPrivateKeyInfo under a legacy scheme: the plaintext is the PKCS#8 key.
          const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
          keys.push(
            decryptLegacyPbe(
              shrouded.encryptionAlgorithm.algorithmId,
              pbeParams(shrouded.encryptionAlgorithm.algorithmParams),
              legacyPassword,
              new Uint8Array(shrouded.encryptedData.getValue()),
            ),
          );
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
    if (err instanceof LegacyPbeError && err.code === 'wrong_password') {
      throw new TokenError(
        'usage',
        `${where}: wrong password, or a damaged file (its integrity check fails); pass the password of the file on stdin with --certificate-password-stdin`,
        { cause: err },
      );
    }
    if (err instanceof LegacyPbeError) return refuse(`cannot open it (${err.message})`, err);
    return refuse(
      `cannot open it (${err instanceof Error ? err.message : String(err)}: a wrong password, or an encryption it does not support?)`,
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
