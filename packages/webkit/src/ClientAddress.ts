import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { BlockList, isIP, isIPv6 } from "node:net"

/**
 * Who is calling, for limits and logs. Behind reverse proxies (`TRUSTED_PROXIES`: addresses or CIDR
 * ranges) the client is the rightmost `X-Forwarded-For` hop that is not one of them: every hop left
 * of it was written by the client itself and proves nothing. Without trusted proxies the header is
 * ignored. Limits count IPv6 clients by their /64, the block one subscriber usually holds.
 */
export interface TrustedProxies {
  readonly has: (address: string) => boolean
}

/** The socket address as the proxy list speaks it (`::ffff:1.2.3.4` is the IPv4 `1.2.3.4`). */
export const plainAddress = (address: string): string => {
  const trimmed = address.trim()
  return trimmed.toLowerCase().startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed
}

/** Parses `TRUSTED_PROXIES` entries; throws on an entry that is neither an address nor a CIDR range. */
export const trustedProxies = (entries: ReadonlyArray<string>): TrustedProxies => {
  const list = new BlockList()
  for (const entry of entries) {
    const [address = "", bits] = entry.trim().split("/")
    const family = isIP(address)
    if (family === 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits)))
      throw new Error(`TRUSTED_PROXIES: not an address or CIDR range: ${entry}`)
    const type = family === 4 ? "ipv4" : "ipv6"
    if (bits === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(bits), type)
  }
  return {
    has: (address) => {
      const a = plainAddress(address)
      const family = isIP(a)
      return entries.length > 0 && family !== 0 && list.check(a, family === 4 ? "ipv4" : "ipv6")
    }
  }
}

export const noTrustedProxies: TrustedProxies = { has: () => false }

/** The client's address: the socket's, or (behind trusted proxies) the rightmost untrusted forwarded hop. */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trusted: TrustedProxies): string => {
  let client = plainAddress(Option.getOrElse(request.remoteAddress, () => "unknown"))
  if (!trusted.has(client)) return client
  const forwarded = request.headers["x-forwarded-for"]
  if (typeof forwarded !== "string") return client
  const hops = forwarded
    .split(",")
    .map(plainAddress)
    .filter((hop) => hop !== "")
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!
    // A trusted proxy writes addresses only; anything else came from the client: stop at the last good hop.
    if (isIP(hop) === 0) return client
    client = hop
    if (!trusted.has(hop)) return hop
  }
  return client
}

/** The key a limit counts by: the address, or for IPv6 its /64 network. */
export const limitKey = (address: string): string => {
  if (!isIPv6(address)) return address
  const [head = "", tail = ""] = address.toLowerCase().split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === "" ? [] : tail.split(":")
  const groups = address.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`
}
