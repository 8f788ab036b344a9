/**
 * Sandbox mode's push receiver: push without a real push service. For a shopper who asks, the
 * server plays the browser's part of a subscription (a P-256 key pair and an auth secret, kept in
 * `DATA_DIR/sandbox-push-inbox.json`) with an endpoint on itself; the worker's web push sender
 * delivers to it exactly as to a real push service (VAPID-signed, RFC 8291 aes128gcm), and the
 * inbox checks the signature, decrypts and keeps the last notices for the page `/v2/sandbox`.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { Context, Effect, Layer, Semaphore } from "effect"
import type { UserId } from "@resale/core"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { SANDBOX_INBOX_PATH } from "@resale/core/push/PushEndpointRules.ts"

export interface InboxNotice {
  readonly at: string
  readonly title: string
  readonly body: string
  readonly url: string | null
}

interface Stored {
  subscriptions: Record<string, { userId: number; privateKey: string; auth: string }>
  received: Record<string, Array<InboxNotice>>
}

const KEEP = 30
const b64u = (b: Buffer) => b.toString("base64url")

/** RFC 8291: the content key from the receiver's private key, the sender's key id and the auth secret. */
export const decryptAes128gcm = (body: Buffer, privateKey: Buffer, authSecret: Buffer): Buffer => {
  const ecdh = createECDH("prime256v1")
  ecdh.setPrivateKey(privateKey)
  const salt = body.subarray(0, 16)
  const idlen = body.readUInt8(20)
  const senderPublic = body.subarray(21, 21 + idlen)
  const ciphertext = body.subarray(21 + idlen)
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ecdh.getPublicKey(), senderPublic])
  const ikm = Buffer.from(hkdfSync("sha256", ecdh.computeSecret(senderPublic), authSecret, keyInfo, 32))
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16))
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12))
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce)
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()])
  // One record: the content, the delimiter 0x02, then zero padding.
  return padded.subarray(0, padded.lastIndexOf(2))
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<public key>`, the signature verified with k and not expired. */
export const vapidValid = (header: string | undefined, nowMs: number): boolean => {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "")
  if (match === null) return false
  try {
    const [head = "", claims = "", signature = ""] = (match[1] ?? "").split(".")
    const point = Buffer.from(match[2] ?? "", "base64url")
    const key = createPublicKey({
      key: { kty: "EC", crv: "P-256", x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
      format: "jwk"
    })
    if (
      !verify(
        "sha256",
        Buffer.from(`${head}.${claims}`),
        { key, dsaEncoding: "ieee-p1363" },
        Buffer.from(signature, "base64url")
      )
    )
      return false
    const { exp } = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as { exp: number }
    return exp * 1000 > nowMs
  } catch {
    // a malformed token or key: not a valid signature
    return false
  }
}

export class SandboxPushInbox extends Context.Service<
  SandboxPushInbox,
  {
    /** A new subscription of `userId` on this inbox: the endpoint (under `endpointBase`) and the browser-side keys. */
    readonly open: (
      userId: number,
      endpointBase: string
    ) => Effect.Effect<{ readonly endpoint: string; readonly keys: { readonly p256dh: string; readonly auth: string } }>
    /** A push delivery to subscription `id`: "ok", or why it was refused (unknown id, bad signature, not decryptable). */
    readonly deliver: (
      id: string,
      authorization: string | undefined,
      encoding: string | undefined,
      body: Buffer
    ) => Effect.Effect<"ok" | "unknown" | "unsigned" | "undecryptable">
    readonly received: (
      userId: number
    ) => Effect.Effect<{ readonly subscribed: boolean; readonly notices: ReadonlyArray<InboxNotice> }>
  }
>()("push/SandboxPushInbox") {
  static readonly layerWith = (dataDir: string) =>
    Layer.effect(
      SandboxPushInbox,
      Effect.gen(function* () {
        const file = join(dataDir, "sandbox-push-inbox.json")
        const text = yield* Effect.promise(() => readFile(file, "utf8").catch(() => ""))
        let stored: Stored = { subscriptions: {}, received: {} }
        try {
          if (text !== "") stored = JSON.parse(text) as Stored
        } catch {
          // a damaged file: start an empty inbox (sandbox data only)
        }
        const lock = yield* Semaphore.make(1)
        const save = Effect.promise(async () => {
          await mkdir(dirname(file), { recursive: true })
          await writeFile(`${file}.tmp`, JSON.stringify(stored), { mode: 0o600 })
          await rename(`${file}.tmp`, file)
        })

        const open = (userId: number, endpointBase: string) =>
          lock.withPermit(
            Effect.gen(function* () {
              const ecdh = createECDH("prime256v1")
              ecdh.generateKeys()
              const auth = randomBytes(16)
              const id = randomBytes(18).toString("base64url")
              stored.subscriptions[id] = { userId, privateKey: b64u(ecdh.getPrivateKey()), auth: b64u(auth) }
              yield* save
              return { endpoint: `${endpointBase}${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } }
            })
          )

        const deliver = (id: string, authorization: string | undefined, encoding: string | undefined, body: Buffer) =>
          lock.withPermit(
            Effect.gen(function* () {
              const sub = stored.subscriptions[id]
              if (sub === undefined) return "unknown" as const
              if (!vapidValid(authorization, Date.now())) return "unsigned" as const
              let notice: InboxNotice
              try {
                if (encoding !== "aes128gcm") throw new Error("not aes128gcm")
                const plain = decryptAes128gcm(
                  body,
                  Buffer.from(sub.privateKey, "base64url"),
                  Buffer.from(sub.auth, "base64url")
                )
                const json = JSON.parse(plain.toString("utf8")) as { title?: unknown; body?: unknown; url?: unknown }
                notice = {
                  at: new Date().toISOString(),
                  title: String(json.title ?? ""),
                  body: String(json.body ?? ""),
                  url: typeof json.url === "string" ? json.url : null
                }
              } catch {
                return "undecryptable" as const
              }
              const key = String(sub.userId)
              stored.received[key] = [notice, ...(stored.received[key] ?? [])].slice(0, KEEP)
              yield* save
              return "ok" as const
            })
          )

        const received = (userId: number) =>
          Effect.sync(() => ({
            subscribed: Object.values(stored.subscriptions).some((s) => s.userId === userId),
            notices: stored.received[String(userId)] ?? []
          }))

        return SandboxPushInbox.of({ open, deliver, received })
      })
    )
}

/** Delivered by the worker on this machine: the address the shopper reached when it is loopback, else PUBLIC_URL. */
const inboxBase = (host: string, publicUrl: string) =>
  /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/.test(host) ? `http://${host}` : publicUrl.replace(/\/$/, "")

/**
 * Opens the shopper's sandbox inbox and points their notifications at it (the JSON route and the
 * sandbox page's form alike). A refusal means PUBLIC_URL is not this server: the server's own
 * receiver is always allowed in sandbox mode.
 */
export const subscribeToSandboxInbox = (userId: UserId, host: string, publicUrl: string) =>
  Effect.gen(function* () {
    const inbox = yield* SandboxPushInbox
    const subscription = yield* inbox.open(userId, `${inboxBase(host, publicUrl)}${SANDBOX_INBOX_PATH}`)
    yield* Notifications.use((notifications) => notifications.subscribePush(userId, subscription))
  })
