import { Base64Url } from "effect/encoding"
import { Context, Result } from "effect"

/**
 * Where browsers' push subscriptions may point: the real push services, over https. A subscription
 * is a URL the worker will POST to, so anything else would let a shopper aim the server at itself
 * (server-side request forgery). The adapter checks the addresses again when it connects. The default
 * of `PUSH_ALLOWED_HOSTS` (`@resale/config`'s catalogue names it from here).
 */
export const DEFAULT_PUSH_HOSTS: ReadonlyArray<string> = [
  "fcm.googleapis.com", // Chrome, Edge on Android, Opera
  "updates.push.services.mozilla.com", // Firefox
  "*.push.apple.com", // Safari
  "*.notify.windows.com" // Edge on Windows (WNS)
]

export interface PushPolicyShape {
  /** Host names (`*.` = any subdomain) a subscription endpoint may name. */
  readonly allowedHosts: ReadonlyArray<string>
  /**
   * Tests only (a loopback push service speaking plain http): accept http endpoints and private
   * addresses. Never read from the environment.
   */
  readonly unsafeLocalDelivery?: boolean
  /**
   * Sandbox mode only: the server's own push receiver (`/v2/sandbox/push`), so push can be tried
   * without a real push service. Exactly its path on this server's own host names; nothing else.
   */
  readonly sandboxInbox?: SandboxInbox
}

export interface SandboxInbox {
  readonly path: string
  readonly hosts: ReadonlyArray<string>
}

/** Where the sandbox push receiver takes deliveries: `<this path><subscription id>`. */
export const SANDBOX_INBOX_PATH = "/v2/sandbox/push/deliver/"

/** The sandbox receiver on loopback and on the server's public host name. */
export const sandboxInboxOf = (publicUrl: string): SandboxInbox => {
  const hosts = ["127.0.0.1", "localhost", "[::1]"]
  try {
    hosts.push(new URL(publicUrl).hostname)
  } catch {
    // an unparseable PUBLIC_URL is refused at start; loopback stays
  }
  return { path: SANDBOX_INBOX_PATH, hosts }
}

/** True when `endpoint` is the sandbox push receiver this policy allows (never outside sandbox mode). */
export const isSandboxInbox = (endpoint: string, policy: PushPolicyShape): boolean => {
  const inbox = policy.sandboxInbox
  if (inbox === undefined) return false
  try {
    const url = new URL(endpoint)
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.username === "" &&
      url.password === "" &&
      inbox.hosts.includes(url.hostname) &&
      url.pathname.startsWith(inbox.path) &&
      /^[A-Za-z0-9_-]{16,64}$/.test(url.pathname.slice(inbox.path.length)) &&
      url.search === ""
    )
  } catch {
    // not a URL: not the inbox
    return false
  }
}

/** The push policy; the roots provide the configured one (`pushPolicyOf`), tests get the default hosts. */
export const PushPolicy = Context.Reference<PushPolicyShape>("core/push/PushPolicy", {
  defaultValue: () => ({ allowedHosts: DEFAULT_PUSH_HOSTS })
})

/** The policy of the mode: the configured hosts (`PUSH_ALLOWED_HOSTS`), in sandbox plus the server's own push receiver. */
export const pushPolicyOf = (
  allowedHosts: ReadonlyArray<string>,
  sandbox: boolean,
  publicUrl: string
): PushPolicyShape => (sandbox ? { allowedHosts, sandboxInbox: sandboxInboxOf(publicUrl) } : { allowedHosts })

/** Longest endpoint accepted (real ones are about 200-500 characters). */
export const ENDPOINT_MAX = 1024

/** True when `host` is one of `patterns` (`*.example.com` matches any subdomain, not the bare name). */
export const hostAllowed = (host: string, patterns: ReadonlyArray<string>): boolean => {
  const name = host.toLowerCase().replace(/\.$/, "")
  return patterns.some((p) =>
    p.startsWith("*.") ? name.endsWith(p.slice(1)) && name.length > p.length - 1 : name === p
  )
}

/** Why an endpoint is refused, or its parsed URL. */
export const checkEndpoint = (endpoint: string, policy: PushPolicyShape): Result.Result<URL, string> => {
  if (endpoint.length > ENDPOINT_MAX) return Result.fail(`endpoint is longer than ${ENDPOINT_MAX} characters`)
  if (isSandboxInbox(endpoint, policy)) return Result.succeed(new URL(endpoint))
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    // not parseable as a URL: refused like any other bad endpoint
    return Result.fail("endpoint must be a URL")
  }
  const local = policy.unsafeLocalDelivery === true
  if (url.protocol !== "https:" && !(local && url.protocol === "http:"))
    return Result.fail("endpoint must be an https URL")
  if (url.username !== "" || url.password !== "") return Result.fail("endpoint must not carry credentials")
  if (url.port !== "" && url.port !== "443" && !local) return Result.fail("endpoint must use the https port")
  if (!hostAllowed(url.hostname, policy.allowedHosts)) return Result.fail("endpoint is not a known push service")
  return Result.succeed(url)
}

// NIST P-256 (secp256r1): y^2 = x^3 - 3x + b (mod p).
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn
const mod = (a: bigint) => ((a % P) + P) % P
const toBigInt = (bytes: Uint8Array) => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n)

/** True for an uncompressed P-256 public key (65 bytes, 0x04, a point on the curve). */
export const isP256Point = (bytes: Uint8Array): boolean => {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false
  const x = toBigInt(bytes.subarray(1, 33))
  const y = toBigInt(bytes.subarray(33, 65))
  if (x >= P || y >= P) return false
  return mod(y * y) === mod(x * x * x - 3n * x + B)
}

const decode = (text: string): Uint8Array | undefined => {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return undefined
  const decoded = Base64Url.decode(text.replace(/=+$/, ""))
  return Result.isSuccess(decoded) ? decoded.success : undefined
}

/** Why the browser's keys are refused: `p256dh` a P-256 point, `auth` a 16-byte secret, both base64url. */
export const checkKeys = (p256dh: string, auth: string): Result.Result<void, string> => {
  const key = decode(p256dh)
  if (key === undefined || !isP256Point(key))
    return Result.fail("keys.p256dh must be an uncompressed P-256 public key (base64url)")
  const secret = decode(auth)
  if (secret === undefined || secret.length !== 16) return Result.fail("keys.auth must be 16 bytes (base64url)")
  return Result.succeed(undefined)
}
