/**
 * The TON Connect wallet description Fragment's link and confirm calls expect: the paying
 * account (raw address, public key, StateInit) and the "device" a real wallet app would report.
 */
import type { PayerAccount } from "@resale/core/ports/Marketplace.ts"

/** TON mainnet chain id as TON Connect writes it */
export const MAINNET_CHAIN = "-239"

const RAW_ADDRESS = /^-?\d+:[0-9a-fA-F]{64}$/
const PUBLIC_KEY = /^[0-9a-fA-F]{64}$/
const BASE64 = /^[A-Za-z0-9+/\-_]+={0,2}$/

/** Problems with a payer description, or undefined when it is well-formed. */
export const payerProblem = (payer: PayerAccount): string | undefined => {
  if (!RAW_ADDRESS.test(payer.address)) return "payer address must be raw form 0:<64 hex>"
  if (!PUBLIC_KEY.test(payer.publicKey)) return "payer public key must be 64 hex characters"
  if (!BASE64.test(payer.walletStateInit)) return "payer walletStateInit must be a base64 BOC"
  return undefined
}

export const accountJson = (payer: PayerAccount): string =>
  JSON.stringify({
    address: payer.address.toLowerCase(),
    publicKey: payer.publicKey.toLowerCase(),
    chain: MAINNET_CHAIN,
    walletStateInit: payer.walletStateInit
  })

export const DEVICE = {
  platform: "iphone",
  appName: "Tonkeeper",
  appVersion: "26.07.1",
  maxProtocolVersion: 2,
  features: [
    "SendTransaction",
    { name: "SendTransaction", maxMessages: 255 },
    { name: "SignData", types: ["text", "binary", "cell"] }
  ]
} as const

export const deviceJson = (): string => JSON.stringify(DEVICE)
