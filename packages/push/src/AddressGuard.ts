import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import { BlockList, isIP } from "node:net"

/**
 * Addresses a push delivery may connect to: public unicast only. Checked on the addresses the
 * connection really uses (the lookup hook of the socket), so a push host that resolves, or later
 * re-resolves, to loopback, a private network or a cloud metadata service is refused at connect.
 */
const blocked = new BlockList()
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4] // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, "ipv4")
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local (incl. fd00:ec2::254, a metadata address)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local
  ["ff00::", 8] // multicast
] as const)
  blocked.addSubnet(net, prefix, "ipv6")

/** The 8 groups of an IPv6 address, or undefined. */
const groups = (address: string): ReadonlyArray<number> | undefined => {
  let text = address.toLowerCase().split("%")[0]!
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4) {
    const parts = v4[1]!.split(".").map(Number)
    text =
      text.slice(0, -v4[1]!.length) +
      `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined]
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0")
  const all = [...left, ...fill, ...right].map((g) => parseInt(g, 16))
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped `::ffff:a.b.c.d`, -compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`). */
const embeddedV4 = (g: ReadonlyArray<number>): string | undefined => {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0)
  const mapped = zeros(5) && (g[5] === 0xffff || g[5] === 0)
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)
  if (!mapped && !nat64) return undefined
  return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join(".")
}

/** True for a public unicast address; false for anything private, local, reserved or not an address. */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 4) return !blocked.check(address, "ipv4")
  if (family !== 6) return false
  const g = groups(address)
  if (g === undefined) return false
  const v4 = embeddedV4(g)
  if (v4 !== undefined && !g.every((x, i) => (i < 7 ? x === 0 : x <= 1))) return !blocked.check(v4, "ipv4")
  return !blocked.check(address, "ipv6")
}

/** The error code of a connection refused for its address. */
export const REFUSED_CODE = "EADDRNOTPUBLIC"

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | Array<LookupAddress>,
  family?: number
) => void

/**
 * A `lookup` for sockets (`net.connect`, undici's `connect` option) that fails when ANY address of
 * the name is not `allowed`: a name that mixes allowed and other records is refused as a whole.
 */
export const lookupAllowing =
  (allowed: (address: string) => boolean) =>
  (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const refused = addresses.find((a) => !allowed(a.address))
      if (refused !== undefined || addresses.length === 0) {
        const denied = Object.assign(new Error(`${REFUSED_CODE}: host ${hostname} resolves to a non-public address`), {
          code: REFUSED_CODE
        })
        return callback(denied, [])
      }
      if (options.all === true) return callback(null, addresses)
      const first = addresses[0]!
      return callback(null, first.address, first.family)
    })
  }

/** Public addresses only (web push; webhooks outside the sandbox's loopback setting). */
export const publicOnlyLookup = lookupAllowing(isPublicAddress)

/** True when a connection was refused by such a lookup (somewhere down the error's causes). */
export const refusedByLookup = (error: unknown): boolean => {
  const seen = new Set<unknown>()
  const visit = (e: unknown, depth: number): boolean => {
    if (e === null || typeof e !== "object" || depth > 8 || seen.has(e)) return false
    seen.add(e)
    const { cause, code, errors, reason } = e as { cause?: unknown; code?: unknown; errors?: unknown; reason?: unknown }
    if (code === REFUSED_CODE || String((e as { message?: unknown }).message ?? "").includes(REFUSED_CODE)) return true
    return (
      visit(cause, depth + 1) ||
      visit(reason, depth + 1) ||
      (Array.isArray(errors) && errors.some((x) => visit(x, depth + 1)))
    )
  }
  return visit(error, 0)
}
