/**
 * The sandbox faucet as a port of its own: sandbox coins for any address. In the process that owns
 * the sandbox chain it is the emulator's treasury; in the other processes of the same data directory
 * it is the owner's served `sandboxFund` method, called through effect's HttpClient.
 */
import { BlockchainError, type Nanoton } from "@resale/core/ports/Blockchain.ts"
import { Context, Effect, Layer, Schema } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import type { SandboxBlockchain } from "./SandboxBlockchain.ts"

const RpcAnswer = Schema.Struct({ ok: Schema.Boolean, error: Schema.optional(Schema.String) })

export class SandboxFaucet extends Context.Service<
  SandboxFaucet,
  {
    readonly fund: (address: string, amount: Nanoton) => Effect.Effect<void, BlockchainError>
  }
>()("ton/SandboxFaucet") {
  /** Over the emulator this process owns. */
  static readonly layerLocal: Layer.Layer<SandboxFaucet, never, SandboxBlockchain> = Layer.effect(
    SandboxFaucet,
    Effect.gen(function* () {
      // Imported when built (sandbox mode only), so the faucet's tag never loads the emulator in production.
      const { SandboxBlockchain } = yield* Effect.promise(() => import("./SandboxBlockchain.ts"))
      const chain = yield* SandboxBlockchain
      return SandboxFaucet.of({ fund: chain.fund })
    })
  )

  /** Over the owner's served JSON-RPC endpoint (`serveSandboxToncenter`). */
  static readonly layerRemote = (endpoint: string) =>
    Layer.effect(
      SandboxFaucet,
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const fund = Effect.fn("SandboxFaucet.fund")(
          function* (address: string, amount: Nanoton) {
            const request = yield* HttpClientRequest.post(endpoint).pipe(
              HttpClientRequest.bodyJson({
                jsonrpc: "2.0",
                id: "1",
                method: "sandboxFund",
                params: { address, amount: amount.toString() }
              })
            )
            const answer = yield* client
              .execute(request)
              .pipe(Effect.flatMap(HttpClientResponse.schemaBodyJson(RpcAnswer)))
            if (!answer.ok)
              return yield* new BlockchainError({
                reason: "InvalidAddress",
                message: answer.error ?? "The sandbox faucet refused"
              })
          },
          Effect.mapError((error) =>
            error instanceof BlockchainError
              ? error
              : new BlockchainError({ reason: "NetworkError", message: "The sandbox faucet could not be reached" })
          )
        )
        return SandboxFaucet.of({ fund })
      })
    )
}
