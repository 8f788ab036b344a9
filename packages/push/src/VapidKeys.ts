import { Effect, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { chmod, link, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"

export interface VapidKeys {
  /** base64url uncompressed P-256 point: the browser's `applicationServerKey` */
  readonly publicKey: string
  readonly privateKey: Redacted.Redacted<string>
}

interface StoredKeys {
  readonly publicKey: string
  readonly privateKey: string
}

const FILE = "vapid-keys.json"

const isKeys = (value: unknown): value is StoredKeys =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Record<string, unknown>)["publicKey"] === "string" &&
  typeof (value as Record<string, unknown>)["privateKey"] === "string"

/** The stored pair, or undefined when the file is missing or damaged (a damaged one gets replaced). */
const readKeys = async (file: string): Promise<StoredKeys | undefined> => {
  const text = await readFile(file, "utf8").catch(() => undefined)
  if (text === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return isKeys(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

const errorCode = (error: unknown): unknown =>
  typeof error === "object" && error !== null ? (error as { readonly code?: unknown }).code : undefined

/**
 * Publishes `temp` as `file`, first creator wins: a hard link never replaces a pair another creator
 * (the server and the worker of one process, or two processes) already published and may be using.
 * A damaged file, or a file system without hard links, falls back to an atomic rename.
 */
const publish = async (temp: string, file: string): Promise<void> => {
  try {
    await link(temp, file)
  } catch (error) {
    if (errorCode(error) !== "EEXIST" || (await readKeys(file)) === undefined) await rename(temp, file)
  } finally {
    await rm(temp, { force: true })
  }
}

const createKeys = async (dataDir: string, file: string): Promise<StoredKeys> => {
  const existing = await readKeys(file)
  if (existing !== undefined) return existing
  // Loaded only when a pair is made (once per data directory), not at every start.
  const { default: webpush } = await import("web-push")
  const fresh = webpush.generateVAPIDKeys()
  await mkdir(dataDir, { recursive: true })
  // A random temp name per call: concurrent creators in one process must not share (and lose) one temp file.
  const temp = `${file}.${randomUUID()}.tmp`
  await writeFile(temp, JSON.stringify(fresh), { mode: 0o600, flag: "wx" })
  await chmod(temp, 0o600)
  await publish(temp, file)
  // Whoever won the race, everybody signs with the pair that is on disk now.
  return (await readKeys(file)) ?? fresh
}

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
  return Effect.promise(() => createKeys(options.dataDir, join(options.dataDir, FILE))).pipe(
    Effect.map((keys) => Option.some({ publicKey: keys.publicKey, privateKey: Redacted.make(keys.privateKey) }))
  )
}
