import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { assert, it, layer } from "@effect/vitest"
import { Blockchain as Emulator } from "@ton/sandbox"
import { Effect } from "effect"
import { makeTonCenterBlockchain, toBlockchainError } from "../src/TonCenterBlockchain.ts"
import { Loopback, TEST_API_KEY, ToncenterEnv } from "./support/layers.ts"
import { transferScenarios } from "./support/scenarios.ts"
import { startToncenterServer } from "./support/ToncenterServer.ts"
import { BIP39_VECTOR, BIP39_VECTOR_V4R2 } from "./support/wallets.ts"

layer(ToncenterEnv, { timeout: "30 seconds" })("TonCenterBlockchain (TonClient over a loopback toncenter)", (it) => {
  transferScenarios(it)

  it.effect("speaks toncenter v2 JSON-RPC with the API key header", () =>
    Effect.gen(function* () {
      const chain = yield* Blockchain
      const server = yield* Loopback
      yield* Effect.flip(chain.resolveWallet(BIP39_VECTOR))
      const methods = new Set(server.calls.map((c) => c.method))
      for (const m of ["getAddressInformation", "runGetMethod", "sendBoc", "getTransactions"])
        assert.isTrue(methods.has(m), m)
      assert.isTrue(server.calls.every((c) => c.apiKey === TEST_API_KEY))
    })
  )
})

it.effect("an unreachable toncenter is a NetworkError, never a wallet error", () =>
  Effect.gen(function* () {
    const chain = makeTonCenterBlockchain({
      endpoint: "http://127.0.0.1:9/api/v2/jsonRPC",
      network: "mainnet",
      timeout: "2 seconds"
    })
    const error = yield* Effect.flip(chain.resolveWallet(BIP39_VECTOR))
    assert.strictEqual(error.reason, "NetworkError")
    assert.notInclude(error.message, "abandon")
  })
)

it.live("waits out toncenter's rate limit (HTTP 429) and gives up after a few tries", () =>
  Effect.gen(function* () {
    const emulator = yield* Effect.promise(() => Emulator.create())
    const server = yield* startToncenterServer(emulator)
    const chain = makeTonCenterBlockchain({ endpoint: server.url, network: "mainnet", rateLimitDelay: "5 millis" })
    server.rateLimitNext = 3
    assert.strictEqual((yield* Effect.flip(chain.resolveWallet(BIP39_VECTOR))).reason, "WalletNotFound")
    assert.strictEqual(server.rateLimitNext, 0)
    server.rateLimitNext = 100
    const error = yield* Effect.flip(chain.balance(BIP39_VECTOR_V4R2))
    assert.deepStrictEqual(
      [error.reason, error.message],
      ["NetworkError", "toncenter getAddressInformation failed (HTTP 429)"]
    )
    assert.strictEqual(server.rateLimitNext, 96, "one try and three retries")
  })
)

it("maps toncenter's refusal of an external message to Rejected with the exit code", () => {
  const refusal = toBlockchainError("sendBoc", {
    response: {
      status: 500,
      data: {
        ok: false,
        error:
          "LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\nCannot run message on account: inbound external message rejected by transaction 83A1: exitcode=36, steps=19, gas_used=0"
      }
    }
  })
  assert.deepStrictEqual([refusal.reason, refusal.exitCode], ["Rejected", 36])
  assert.strictEqual(
    toBlockchainError("getTransactions", { response: { status: 429, data: {} } }).reason,
    "NetworkError"
  )
  assert.strictEqual(toBlockchainError("sendBoc", { code: "ECONNABORTED" }).reason, "Timeout")
  assert.strictEqual(
    toBlockchainError("sendBoc", { response: { status: 502, data: "bad gateway" } }).reason,
    "NetworkError"
  )
})
