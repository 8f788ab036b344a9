/**
 * `resale hot-wallet` in sandbox mode (in process, the sandbox chain of the test's DATA_DIR): where to
 * send TON while the hot wallet holds none (the configured contract's address only: a Highload Wallet
 * V3 is shown by no wallet app), then its contract, state and balance once funded.
 */
import { assert, layer } from "@effect/vitest"
import { deriveKeys, walletContract } from "@resale/ton"
import { sandboxHotWalletPhrase } from "@resale/ton/TonHotWallet.ts"
import { Effect } from "effect"
import { cli, CliTestLayer, json } from "./support/CliHarness.ts"

const sandboxEnv = { TELEGRAM_BOT_TOKEN: undefined, SANDBOX: undefined, PORT: "9", HOT_WALLET_MNEMONIC: undefined }

const addressOf = (version: "v5r1" | "highload-v3") =>
  Effect.map(Effect.orDie(deriveKeys(sandboxHotWalletPhrase())), (keys) =>
    walletContract(version, keys[0]!.key.publicKey, -239).address.toString({ bounceable: false, urlSafe: true })
  )

layer(CliTestLayer, { timeout: "120 seconds", excludeTestServices: true })(
  "resale hot-wallet (in process, sandbox chain)",
  (it) => {
    it.effect("names the Highload V3 address to fund, then shows the funded wallet; v5r1 is another address", () =>
      Effect.gen(function* () {
        const highload = yield* addressOf("highload-v3")
        const env = { ...sandboxEnv, HOT_WALLET_VERSION: "highload-v3" }
        const empty = yield* cli(["hot-wallet", "--json"], { env })
        assert.strictEqual(empty.code, 0, empty.stderr)
        assert.deepStrictEqual(json(empty), { funded: false, fund_at: [{ version: "highload-v3", address: highload }] })
        const text = yield* cli(["hot-wallet"], { env })
        assert.include(text.stdout, `${highload} (highload-v3)`)

        const funded = yield* cli(["sandbox", "fund", highload, "12.5"], { env })
        assert.strictEqual(funded.code, 0, funded.stderr)
        const shown = yield* cli(["hot-wallet", "--json"], { env })
        assert.deepStrictEqual(json(shown), {
          funded: true,
          version: "highload-v3",
          address: highload,
          state: "uninit",
          balance_ton: "12.5"
        })

        // The same phrase as V5R1 is another, unfunded wallet.
        const v5 = yield* cli(["hot-wallet", "--json"], { env: { ...sandboxEnv, HOT_WALLET_VERSION: "v5r1" } })
        assert.deepStrictEqual(json(v5), {
          funded: false,
          fund_at: [{ version: "v5r1", address: yield* addressOf("v5r1") }]
        })
      })
    )

    it.effect("outside sandbox mode without HOT_WALLET_MNEMONIC: a clear error, nothing looked up", () =>
      Effect.gen(function* () {
        const run = yield* cli(["hot-wallet"], { env: { SANDBOX: "false", HOT_WALLET_MNEMONIC: undefined } })
        assert.notStrictEqual(run.code, 0)
        assert.include(run.stderr, "HOT_WALLET_MNEMONIC")
      })
    )
  }
)
