import { assert, describe, it } from "@effect/vitest"
import { BlockchainError } from "../../src/ports/Blockchain.ts"
import { walletFailure } from "../../src/direct/DirectWallets.ts"

const addresses = [
  { version: "v4r2", address: "UQ-v4-address" },
  { version: "v5r1", address: "UQ-v5-address" }
] as const

const empty = new BlockchainError({ reason: "WalletNotFound", message: "nothing there", addresses: [...addresses] })

describe("DirectWallets.walletFailure", () => {
  it("a valid phrase with empty wallets is short of funds and names W5's address first, then the other", () => {
    const failure = walletFailure(empty, undefined)
    assert.deepStrictEqual([failure.reason, failure.outcome], ["InsufficientFunds", "NotPaid"])
    assert.match(failure.message, /send TON to UQ-v5-address \(v5r1\); its v4r2 wallet UQ-v4-address works too/)
  })

  it("with a version asked for, only that wallet's address", () => {
    const failure = walletFailure(empty, "v4r2")
    assert.strictEqual(failure.reason, "InsufficientFunds")
    assert.include(failure.message, "UQ-v4-address")
    assert.notInclude(failure.message, "UQ-v5-address")
  })

  it("words that are no mnemonic, a frozen wallet or another version stay WalletInvalid", () => {
    for (const reason of ["InvalidMnemonic", "Frozen", "VersionMismatch"] as const) {
      assert.strictEqual(
        walletFailure(new BlockchainError({ reason, message: "no" }), undefined).reason,
        "WalletInvalid"
      )
    }
  })

  it("an unreachable chain or a full derivation queue pays nothing and says so", () => {
    const down = walletFailure(new BlockchainError({ reason: "NetworkError", message: "down" }), undefined)
    assert.deepStrictEqual([down.reason, down.outcome], ["TransferFailed", "NotPaid"])
    const busy = walletFailure(new BlockchainError({ reason: "Overloaded", message: "busy" }), undefined)
    assert.strictEqual(busy.reason, "ServiceBusy")
  })
})
