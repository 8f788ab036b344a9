/**
 * A local Web Push service, as a browser's push service would be: it hands out subscriptions (an
 * endpoint plus the browser side's P-256 key pair and auth secret), verifies the VAPID JWT of each
 * request (RFC 8292) and decrypts the aes128gcm body with the subscription's private key (RFC 8291).
 * An endpoint can be told to answer 410 Gone or 500.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

export interface BrowserSubscription {
  readonly endpoint: string
  readonly keys: { readonly p256dh: string; readonly auth: string }
}

export interface ReceivedPush {
  readonly endpoint: string
  readonly payload: unknown
  readonly vapidAudience: string
  readonly vapidPublicKey: string
  readonly ttl: string | undefined
}

const b64u = (buffer: Buffer) => buffer.toString("base64url")

/** RFC 8291: the key of the message from the UA's private key, the sender's key id and the auth secret. */
export const decryptAes128gcm = (
  body: Buffer,
  uaPrivate: ReturnType<typeof createECDH>,
  authSecret: Buffer
): Buffer => {
  const salt = body.subarray(0, 16)
  const idlen = body.readUInt8(20)
  const senderPublic = body.subarray(21, 21 + idlen)
  const ciphertext = body.subarray(21 + idlen)
  const uaPublic = uaPrivate.getPublicKey()
  const ecdhSecret = uaPrivate.computeSecret(senderPublic)
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, senderPublic])
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, authSecret, keyInfo, 32))
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16))
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12))
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce)
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()])
  // The last record ends with the delimiter 0x02 followed by zero padding.
  const end = padded.lastIndexOf(2)
  return padded.subarray(0, end)
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<public key>`; the signature must verify with k. */
const checkVapid = (header: string | undefined) => {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "")
  if (match === null) throw new Error("no VAPID authorization")
  const [, jwt = "", k = ""] = match
  const [head = "", claims = "", signature = ""] = jwt.split(".")
  const point = Buffer.from(k, "base64url")
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: "jwk"
  })
  const ok = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url")
  )
  if (!ok) throw new Error("VAPID signature does not verify")
  const payload = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as { aud: string; exp: number }
  if (payload.exp * 1000 < Date.now()) throw new Error("VAPID token expired")
  return { audience: payload.aud, publicKey: k }
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

export const startLocalPushService = Effect.acquireRelease(
  Effect.promise(async () => {
    const browsers = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>()
    const answers = new Map<string, number>()
    const received: Array<ReceivedPush> = []
    const refused: Array<string> = []
    const server = createServer(async (req, res) => {
      const body = await readBody(req)
      const path = req.url ?? ""
      const browser = browsers.get(path)
      const forced = answers.get(path)
      if (forced !== undefined) {
        res.writeHead(forced).end()
        return
      }
      try {
        if (browser === undefined) throw new Error("unknown subscription")
        if (req.headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm")
        const vapid = checkVapid(req.headers.authorization)
        const plain = decryptAes128gcm(body, browser.ecdh, browser.auth)
        received.push({
          endpoint: path,
          payload: JSON.parse(plain.toString("utf8")),
          vapidAudience: vapid.audience,
          vapidPublicKey: vapid.publicKey,
          ttl: req.headers["ttl"] as string | undefined
        })
        res.writeHead(201).end()
      } catch (error) {
        refused.push(`${path}: ${error instanceof Error ? error.message : String(error)}`)
        res.writeHead(400).end()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return {
      server,
      origin,
      received,
      refused,
      /** A new browser subscription on this service. */
      subscribe: (): BrowserSubscription => {
        const path = `/push/${randomBytes(12).toString("hex")}`
        const ecdh = createECDH("prime256v1")
        ecdh.generateKeys()
        const auth = randomBytes(16)
        browsers.set(path, { ecdh, auth })
        return { endpoint: `${origin}${path}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } }
      },
      /** The endpoint answers `status` from now on (410 Gone, 500, ...). */
      answer: (endpoint: string, status: number) => void answers.set(new URL(endpoint).pathname, status)
    }
  }),
  ({ server }) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
    )
).pipe(Effect.map(({ server: _server, ...rest }) => rest))
