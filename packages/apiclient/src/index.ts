/**
 * The typed clients an integrator would generate from the served documents: `paths` from
 * openapi-typescript (committed in `generated/`, checked against the server by a test), calls
 * through openapi-fetch. Credentials are security schemes, so they go in the client's headers.
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch"
import type { paths as DirectPaths } from "./generated/direct.ts"
import type { components, paths } from "./generated/v2.ts"

export type V2Client = Client<paths>
export type DirectClient = Client<DirectPaths>
export type V2Schemas = components["schemas"]

/** A /v2 client; `headers` carries `X-API-Key`, `X-Admin-Token` or a session cookie. */
export const v2Client = (baseUrl: string, options: Omit<ClientOptions, "baseUrl"> = {}): V2Client =>
  createClient<paths>({ ...options, baseUrl })

/** A client of the direct purchase surface (`/direct/openapi.json`). */
export const directClient = (baseUrl: string, options: Omit<ClientOptions, "baseUrl"> = {}): DirectClient =>
  createClient<DirectPaths>({ ...options, baseUrl })

export type { DirectPaths, paths as V2Paths }
export {
  type BotKeys,
  type TonConnectAccount,
  type TonConnectTransaction,
  type WalletSigner,
  type WalletSignerOptions,
  type WalletVersion,
  walletSigner
} from "./WalletSigner.ts"
