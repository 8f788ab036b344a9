import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

/**
 * A new API key travels from the rotation (POST) to the page that shows it (GET) in a short-lived
 * cookie, so reloading that page never rotates again (post/redirect/get). The cookie is sealed
 * with AES-256-GCM under a key derived from the server's cookie secret (nobody reads or forges it),
 * scoped to the one page's path, and expired by the first page that shows it: the key is shown once.
 */
export const NEW_KEY_COOKIE = "resale_new_key"
export const NEW_KEY_PATH = "/v2/api-key/new"
export const CONFIRM_PATH = "/v2/api-key/confirm"

const cipherKey = (secret: string) => createHash("sha256").update(`new-api-key\n${secret}`).digest()

export const sealKey = (secret: string, apiKey: string): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", cipherKey(secret), iv)
  const body = Buffer.concat([cipher.update(apiKey, "utf8"), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")
}

export const openKey = (secret: string, sealed: string | undefined): string | undefined => {
  if (!sealed || sealed.length > 1000) return undefined
  const bytes = Buffer.from(sealed, "base64url")
  if (bytes.length < 29) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", cipherKey(secret), bytes.subarray(0, 12))
    decipher.setAuthTag(bytes.subarray(12, 28))
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8")
  } catch {
    return undefined
  }
}
