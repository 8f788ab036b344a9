/**
 * Sandbox mode of the direct surface: the TON emulator and a simulated Fragment that speaks Fragment's
 * wire format and delivers only once the payment (amount, address, `Ref#`) is really on the emulated
 * chain. Payment messages are real: they leave the customer's sandbox wallet and land at the sandbox
 * Fragment wallet, so balances move exactly as they would on mainnet.
 */
import type { FragmentOptions } from "@resale/marketplace/FragmentConfig.ts"
import { FragmentSandbox } from "@resale/marketplace/simulator/FragmentSandbox.ts"
import type { FragmentSimulatorOptions } from "@resale/marketplace/simulator/FragmentSimulator.ts"
import { SandboxBlockchain } from "@resale/ton/SandboxBlockchain.ts"
import { Effect, Layer } from "effect"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"

type AdapterOptions = Partial<Omit<FragmentOptions, "baseUrl" | "cookies">>

/** The simulated Fragment (and the real Fragment adapter on it) over the `SandboxBlockchain` in context. */
export const sandboxMarketplace = (simulator: FragmentSimulatorOptions = {}, adapter: AdapterOptions = {}) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const chain = yield* SandboxBlockchain
      // With the test recipients on, the chain asks the simulator which payments to lose.
      const dropping = Layer.effectDiscard(
        Effect.gen(function* () {
          const { control } = yield* FragmentSandbox
          if (simulator.magic !== undefined && simulator.magic !== false) chain.dropPayments(control.dropsPayment)
        })
      )
      return dropping.pipe(
        Layer.provideMerge(FragmentSandbox.layer({ ...simulator, paymentSeen: paymentSeenOn(chain.emulator) }, adapter))
      )
    })
  )
