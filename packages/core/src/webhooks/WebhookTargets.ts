import { Context, Result, Schema } from "effect"

/**
 * Where webhooks may go. A webhook URL is a place the worker will POST to, so a private, loopback,
 * link-local or cloud-metadata address would let an integrator aim the server at its own network
 * (server-side request forgery). The URL's host is checked here; the sender checks every address
 * the name resolves to again when it connects.
 */
export interface WebhookPolicyShape {
  /** Sandbox only (`WEBHOOKS_ALLOW_LOOPBACK`): also accept `http://127.0.0.1:<port>` / `localhost` targets. */
  readonly allowLoopback: boolean
  /** A sandbox server (absent: production); a refused loopback target then names the setting that admits it. */
  readonly sandbox?: boolean
}

export const WebhookPolicy = Context.Reference<WebhookPolicyShape>("core/webhooks/WebhookPolicy", {
  defaultValue: () => ({ allowLoopback: false })
})

/** Longest URL accepted. */
export const WEBHOOK_URL_MAX = 2048

const ipv4 = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined
  const bytes = parts.map(Number)
  return bytes.every((b) => b <= 255) ? bytes : undefined
}

const privateV4 = ([a, b]: ReadonlyArray<number>): boolean =>
  a === 0 ||
  a === 10 ||
  a === 127 ||
  a! >= 224 || // this network, private, loopback, multicast + reserved
  (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
  (a === 169 && b === 254) || // link-local, cloud metadata (169.254.169.254)
  (a === 172 && b! >= 16 && b! <= 31) ||
  (a === 192 && b === 168) ||
  (a === 192 && b === 0) || // IETF protocol assignments
  (a === 198 && (b === 18 || b === 19)) // benchmarking

/** True for a loopback address literal (IPv4 127/8 or ::1). */
export const isLoopbackAddress = (address: string): boolean => {
  const v4 = ipv4(address)
  if (v4 !== undefined) return v4[0] === 127
  return address.replace(/^\[|\]$/g, "") === "::1"
}

/** True when an IP address literal is public (not private, loopback, link-local, metadata, multicast, ...). */
export const isPublicAddress = (address: string): boolean => {
  const v4 = ipv4(address)
  if (v4 !== undefined) return !privateV4(v4)
  const v6 = address.replace(/^\[|\]$/g, "").toLowerCase()
  if (!v6.includes(":")) return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6)
  if (mapped !== null) return isPublicAddress(mapped[1]!)
  if (v6 === "::" || v6 === "::1") return false
  // unique local fc00::/7, link-local fe80::/10, multicast ff00::/8, site-local fec0::/10, IPv4-compatible ::/96
  if (/^(f[cd]|fe[89ab]|fe[c-f]|ff)/.test(v6) || v6.startsWith("::")) return false
  return true
}

const IP_LITERAL = /^(\d+\.\d+\.\d+\.\d+|\[[0-9a-f:.]+\])$/i

/** Why a webhook URL is refused, stable for clients (`params.reason`). */
export const WebhookUrlRefusalReason = Schema.Literals([
  "url_too_long",
  "url_invalid",
  "credentials_in_url",
  "loopback_needs_sandbox_setting",
  "loopback_not_in_production",
  "not_https",
  "port_not_default",
  "host_not_public"
])
export type WebhookUrlRefusalReason = typeof WebhookUrlRefusalReason.Type

export interface WebhookUrlRefusal {
  readonly reason: WebhookUrlRefusalReason
  readonly message: string
}

const refuse = (reason: WebhookUrlRefusalReason, message: string) => Result.fail({ reason, message })

/**
 * Why a webhook URL is refused, or the URL: https on a public host and port 443; loopback (any
 * port, http too) only with `allowLoopback`. The sender applies the same rule before each send.
 */
export const checkWebhookUrl = (text: string, policy: WebhookPolicyShape): Result.Result<URL, WebhookUrlRefusal> => {
  if (text.length > WEBHOOK_URL_MAX) return refuse("url_too_long", `url is longer than ${WEBHOOK_URL_MAX} characters`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    // not parseable: refused like any other bad URL
    return refuse("url_invalid", "url must be an absolute https URL")
  }
  if (url.username !== "" || url.password !== "") return refuse("credentials_in_url", "url must not carry credentials")
  const host = url.hostname.toLowerCase()
  const loopback = host === "localhost" || isLoopbackAddress(host)
  if (loopback && (url.protocol === "http:" || url.protocol === "https:")) {
    if (policy.allowLoopback) return Result.succeed(url)
    // Say what admits it: integrators testing locally otherwise never learn the setting exists.
    return policy.sandbox === true
      ? refuse(
          "loopback_needs_sandbox_setting",
          "url is a loopback address: loopback targets are allowed only on a sandbox server with WEBHOOKS_ALLOW_LOOPBACK=true"
        )
      : refuse(
          "loopback_not_in_production",
          "url is a loopback address: loopback targets are never allowed in production (only a sandbox server with WEBHOOKS_ALLOW_LOOPBACK=true accepts them)"
        )
  }
  if (url.protocol !== "https:") return refuse("not_https", "url must be https")
  // Only the default port: other ports would let the worker probe any service a public host runs.
  if (url.port !== "") return refuse("port_not_default", "url must use the default https port (443)")
  if (host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")) {
    return refuse("host_not_public", "url must name a public host")
  }
  if (IP_LITERAL.test(host) ? !isPublicAddress(host) : !host.includes("."))
    return refuse("host_not_public", "url must name a public host")
  return Result.succeed(url)
}
