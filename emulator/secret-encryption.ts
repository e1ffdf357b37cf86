import { createCipheriv, randomBytes } from "node:crypto";

/**
 * Fields a real export holds encrypted: every secret of the real fetched export in bundleutils'
 * tests (tsmp-falcon-platform/ci-bundle-utils@abb223a, bundleutilspkg/tests/resources/credentials/fetched-bundle/
 * jenkins.yaml: `privateKey`, `password`, `secret`, `secretBytes`, all `'{AQAAABAAAA...}'`). bundleutils' transform
 * config lists no field names (data/configs/transform.yaml `credentials: {jenkins.yaml: {}, items.yaml: {}}`): it
 * finds secrets by their encrypted form (ENCRYPTED_SECRET).
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(["privateKey", "password", "secret", "secretBytes"]);

/** An encrypted secret as bundleutils recognises it (bundleutils.py, find_paths_of_values_matching_pattern). */
export const ENCRYPTED_SECRET = /^\{AQAAABAAAA[a-zA-Z0-9+/=]{8,}\}$/;

const PAYLOAD_V1 = 1;
const IV_BYTES = 16;

/**
 * An instance's secret key, as Jenkins keeps one per instance (hudson.util.Secret). Each encryption draws a fresh
 * IV, so the same value reads differently per controller and per export, as on a real server. The layout is
 * Jenkins' (version 1, IV length, data length, IV, AES-CBC data), which is why every value starts `{AQAAABAAAA`.
 */
export class SecretEncryption {
  private readonly key = randomBytes(16);

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-128-cbc", this.key, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    const header = Buffer.alloc(9);
    header.writeUInt8(PAYLOAD_V1, 0);
    header.writeUInt32BE(IV_BYTES, 1);
    header.writeUInt32BE(data.length, 5);
    return `{${Buffer.concat([header, iv, data]).toString("base64")}}`;
  }
}
