/**
 * Sandbox chain and marketplace for a worker that runs on its own (`npm run worker` without
 * TONCENTER_URL / FRAGMENT_COOKIES): the TON VM with its state under the data directory and the
 * Fragment simulator, which (like fragment.com) delivers once the payment with the invoice's `Ref#`
 * has really reached its wallet on that chain, whether or not the payer reported it.
 */
import { FragmentSandbox, type PaymentSeen } from "@resale/marketplace"
import { SandboxBlockchain } from "@resale/ton"
import type { Blockchain as Emulator } from "@ton/sandbox"
import { Address, type Cell } from "@ton/ton"
import { Effect, Layer } from "effect"

const commentOf = (body: Cell): string | undefined => {
  try {
    const slice = body.beginParse()
    return slice.remainingBits >= 32 && slice.loadUint(32) === 0 ? slice.loadStringTail() : undefined
  } catch {
    // not a text comment: not a Fragment payment
    return undefined
  }
}

/** Has a payment of at least the amount, with this `Ref#` in its comment, reached the address? */
export const paymentSeenOn = (emulator: Emulator): PaymentSeen => async (ref, expected) => {
  const txs = await emulator.getTransactions(Address.parse(expected.address))
  return txs.some((tx) => {
    const info = tx.inMessage?.info
    if (tx.inMessage == null || info?.type !== "internal" || info.value.coins < expected.amount) return false
    return commentOf(tx.inMessage.body)?.includes(`Ref#${ref}`) === true
  })
}

/** The simulator (and the real Fragment adapter on it) over the `SandboxBlockchain` in context. */
export const sandboxMarketplace = Layer.unwrap(Effect.gen(function*() {
  const { emulator } = yield* SandboxBlockchain
  return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator) })
}))

export const SandboxWorld = {
  /** Chain state under `${dataDir}`; the marketplace on the same emulator. */
  layer: (dataDir: string) => sandboxMarketplace.pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ dataDir })))
} as const
