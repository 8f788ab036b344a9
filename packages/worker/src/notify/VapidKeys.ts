import { Effect, Option, Redacted } from "effect"
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import webpush from "web-push"

export interface VapidKeys {
  /** base64url uncompressed P-256 point: the browser's `applicationServerKey` */
  readonly publicKey: string
  readonly privateKey: Redacted.Redacted<string>
}

const FILE = "vapid-keys.json"

const isKeys = (value: unknown): value is { publicKey: string; privateKey: string } =>
  typeof value === "object" && value !== null &&
  typeof (value as Record<string, unknown>)["publicKey"] === "string" &&
  typeof (value as Record<string, unknown>)["privateKey"] === "string"

/**
 * The VAPID key pair: the configured one, or in sandbox mode a pair generated once and kept in
 * `${dataDir}/vapid-keys.json` (owner-only), so the server's subscribe page and every worker of
 * this data directory sign with the same key the browsers subscribed with.
 */
export const resolveVapidKeys = (options: {
  readonly configured: Option.Option<{ readonly publicKey: string; readonly privateKey: Redacted.Redacted<string> }>
  readonly sandbox: boolean
  readonly dataDir: string
}): Effect.Effect<Option.Option<VapidKeys>> => {
  if (Option.isSome(options.configured)) return Effect.succeed(options.configured)
  if (!options.sandbox) return Effect.succeedNone
  const file = join(options.dataDir, FILE)
  return Effect.promise(async () => {
    const text = await readFile(file, "utf8").catch(() => undefined)
    const stored: unknown = text === undefined ? undefined : JSON.parse(text)
    if (isKeys(stored)) return stored
    const fresh = webpush.generateVAPIDKeys()
    await mkdir(options.dataDir, { recursive: true })
    // Temp file + rename: a reader never sees half a file; a concurrent first start keeps one of the pairs.
    const temp = `${file}.${process.pid}.tmp`
    await writeFile(temp, JSON.stringify(fresh), { mode: 0o600 })
    await chmod(temp, 0o600)
    await rename(temp, file)
    const kept: unknown = JSON.parse(await readFile(file, "utf8"))
    return isKeys(kept) ? kept : fresh
  }).pipe(Effect.map((keys) => Option.some({ publicKey: keys.publicKey, privateKey: Redacted.make(keys.privateKey) })))
}
