/**
 * Sandbox chain and marketplace for a worker that runs on its own (`npm run worker` without
 * TONCENTER_URL / FRAGMENT_COOKIES): the TON VM with its state under the data directory and the
 * Fragment simulator, which (like fragment.com) delivers once the payment with the invoice's `Ref#`
 * has really reached its wallet on that chain, whether or not the payer reported it.
 */
import { FragmentSandbox } from "@resale/marketplace"
import { SandboxBlockchain } from "@resale/ton"
import { Effect, Layer } from "effect"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"

export { paymentSeenOn }

/** The simulator (and the real Fragment adapter on it) over the `SandboxBlockchain` in context. */
export const sandboxMarketplace = Layer.unwrap(Effect.gen(function*() {
  const { emulator } = yield* SandboxBlockchain
  return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator) })
}))

export const SandboxWorld = {
  /** Chain state under `${dataDir}`; the marketplace on the same emulator. */
  layer: (dataDir: string) => sandboxMarketplace.pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ dataDir })))
} as const
