/**
 * Transfer scenarios every adapter of the Blockchain port must pass against the real TON VM. The
 * sandbox test runs them in process; the toncenter test runs them through TonClient and a loopback
 * toncenter v2 server over the same emulator.
 */
import {
  Blockchain,
  type MnemonicKind,
  type Nanoton,
  type Wallet,
  type WalletVersion
} from "@resale/core/ports/Blockchain.ts"
import { assert, type Vitest } from "@effect/vitest"
import { Address, beginCell, type Transaction } from "@ton/ton"
import { Effect, type Redacted } from "effect"
import { TestClock } from "effect/testing"
import { SandboxBlockchain } from "../../src/SandboxBlockchain.ts"
import { SendFaults } from "./layers.ts"
import { atRealTime, bip39Words12, freshAddress, milliTon, ton, ton24, walletAddress } from "./wallets.ts"

type Env = Blockchain | SandboxBlockchain | SendFaults

/** Incoming transactions of `address`, oldest first (the emulator's own order flips per call). */
export const incoming = (address: string) =>
  Effect.gen(function* () {
    const { emulator } = yield* SandboxBlockchain
    const txs = yield* Effect.promise(() => emulator.getTransactions(Address.parse(address)))
    return txs.toSorted((a, b) => (a.lt < b.lt ? -1 : 1)) as ReadonlyArray<Transaction>
  })

/** A wallet of this phrase, version and kind funded through the faucet. */
export const fundedWallet = (
  phrase: Redacted.Redacted<string>,
  version: WalletVersion,
  kind: MnemonicKind,
  amount: Nanoton
) =>
  Effect.gen(function* () {
    const address = yield* walletAddress(phrase, version, kind)
    yield* (yield* SandboxBlockchain).fund(address, amount)
    return address
  })

/** Prepare, send, confirm; asserts the sender paid exactly amount + reported fee. */
export const pay = (wallet: Wallet, to: string, amount: Nanoton, extra: { comment?: string; payload?: string } = {}) =>
  Effect.gen(function* () {
    const chain = yield* Blockchain
    const before = yield* chain.balance(wallet.address)
    const prepared = yield* chain.prepareTransfer(wallet, { to, amount, ...extra })
    yield* chain.send(prepared)
    const status = yield* chain.confirm(prepared)
    assert(status._tag === "Confirmed", `expected Confirmed, got ${status._tag}`)
    const after = yield* chain.balance(wallet.address)
    assert.strictEqual(before - after, amount + status.fee)
    return { wallet, prepared, status }
  })

export const transferScenarios = (it: Vitest.MethodsNonLive<Env>) => {
  const cases: ReadonlyArray<readonly [string, Effect.Effect<Redacted.Redacted<string>>, MnemonicKind, WalletVersion]> =
    [
      ["24-word TON", ton24, "ton", "v4r2"],
      ["24-word TON", ton24, "ton", "v5r1"],
      ["12-word BIP39", bip39Words12, "bip39", "v4r2"],
      ["12-word BIP39", bip39Words12, "bip39", "v5r1"]
    ]
  for (const [label, makePhrase, kind, version] of cases) {
    it.effect(`${version}, ${label}: resolves, deploys on first send, pays with a comment, fee exact`, () =>
      Effect.gen(function* () {
        yield* atRealTime
        const chain = yield* Blockchain
        const phrase = yield* makePhrase
        const address = yield* fundedWallet(phrase, version, kind, ton(3))
        const wallet = yield* chain.resolveWallet(phrase)
        assert.deepStrictEqual(
          [wallet.address, wallet.version, wallet.kind, wallet.status, wallet.balance],
          [address, version, kind, "uninit", ton(3)]
        )

        const to = freshAddress(false)
        const first = yield* pay(wallet, to, ton(1), { comment: "order o1" })
        const state = yield* chain.accountState(address)
        assert.deepStrictEqual([state.status, state.seqno], ["active", 1])
        const [received] = yield* incoming(to)
        const body = received!.inMessage!.body.beginParse()
        assert.deepStrictEqual([body.loadUint(32), body.loadStringTail()], [0, "order o1"])
        assert.strictEqual(yield* chain.balance(to), ton(1)) // non-bounceable to a fresh address: it stays

        const second = yield* pay(wallet, to, milliTon(250))
        assert.isTrue(second.status.fee < first.status.fee, "the deploy transfer carries the StateInit and costs more")
        assert.strictEqual(second.prepared.seqno, 1)
        const received2 = (yield* incoming(to))[1]!.inMessage!.info
        assert(received2.type === "internal" && received2.value.coins === milliTon(250))
      })
    )
  }

  it.effect("bounce comes from the address: a bounceable address of an empty account gets nothing", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const chain = yield* Blockchain
      const phrase = yield* bip39Words12
      yield* fundedWallet(phrase, "v4r2", "bip39", ton(2))
      const wallet = yield* chain.resolveWallet(phrase)
      const to = freshAddress(true)
      const prepared = yield* chain.prepareTransfer(wallet, { to, amount: milliTon(500) })
      assert.isTrue(prepared.bounce)
      yield* chain.send(prepared)
      const status = yield* chain.confirm(prepared)
      assert(status._tag === "Confirmed") // the wallet did pay; the empty account sent it back
      assert.strictEqual(yield* chain.balance(to), 0n)
      const bounced = (yield* incoming(wallet.address)).at(-1)
      const info = bounced!.inMessage!.info
      assert(info.type === "internal" && info.bounced && info.src.equals(Address.parse(to)))
    })
  )

  it.effect("refuses a transfer the balance cannot cover with its fees, and sends nothing", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const chain = yield* Blockchain
      const phrase = yield* bip39Words12
      const address = yield* fundedWallet(phrase, "v5r1", "bip39", milliTon(1005))
      const wallet = yield* chain.resolveWallet(phrase)
      const error = yield* Effect.flip(chain.prepareTransfer(wallet, { to: freshAddress(false), amount: ton(1) }))
      assert.strictEqual(error.reason, "InsufficientFunds")
      const state = yield* chain.accountState(address)
      assert.deepStrictEqual([state.status, state.balance], ["uninit", milliTon(1005)])
    })
  )

  it.effect("a funded wallet of the other version answers VersionMismatch; an unfunded phrase WalletNotFound", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const chain = yield* Blockchain
      const phrase = yield* bip39Words12
      yield* fundedWallet(phrase, "v4r2", "bip39", ton(1))
      const mismatch = yield* Effect.flip(chain.resolveWallet(phrase, { version: "v5r1" }))
      assert.strictEqual(mismatch.reason, "VersionMismatch")
      assert.strictEqual((yield* chain.resolveWallet(phrase, { version: "v4r2" })).version, "v4r2")
      const empty = yield* Effect.flip(chain.resolveWallet(yield* bip39Words12))
      assert.strictEqual(empty.reason, "WalletNotFound")
      const invalid = yield* Effect.flip(
        chain.prepareTransfer(yield* chain.resolveWallet(phrase), { to: "not-an-address", amount: ton(1) })
      )
      assert.strictEqual(invalid.reason, "InvalidAddress")
    })
  )

  it.effect("forwards a Fragment payload cell byte for byte", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const { emulator } = yield* SandboxBlockchain
      const phrase = yield* bip39Words12
      yield* fundedWallet(phrase, "v5r1", "bip39", ton(2))
      const wallet = yield* (yield* Blockchain).resolveWallet(phrase)
      const fragment = yield* Effect.promise(() => emulator.treasury("fragment"))
      const cell = beginCell().storeUint(0, 32).storeStringTail("50 Telegram Stars \n\nRef#Zz9Yy8Xx7").endCell()
      const payload = cell.toBoc().toString("base64").replace(/=+$/, "") // Fragment sends it unpadded
      const to = fragment.address.toRawString() // raw form: bounceable, and the contract is active
      const { prepared } = yield* pay(wallet, to, milliTon(700), { payload })
      assert.isTrue(prepared.bounce)
      const received = (yield* incoming(prepared.to)).at(-1)!
      assert.strictEqual(received.inMessage!.body.hash().toString("hex"), cell.hash().toString("hex"))
      assert.strictEqual(
        received.inMessage!.body.beginParse().skip(32).loadStringTail(),
        "50 Telegram Stars \n\nRef#Zz9Yy8Xx7"
      )
    })
  )

  it.effect("one transfer in flight per wallet; a message never sent expires only after valid_until", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const chain = yield* Blockchain
      const { emulator } = yield* SandboxBlockchain
      const phrase = yield* bip39Words12
      const address = yield* fundedWallet(phrase, "v4r2", "bip39", ton(2))
      const wallet = yield* chain.resolveWallet(phrase)
      const lost = yield* chain.prepareTransfer(wallet, { to: freshAddress(false), amount: ton(1) })
      const busy = yield* Effect.flip(chain.prepareTransfer(wallet, { to: freshAddress(false), amount: ton(1) }))
      assert.strictEqual(busy.reason, "Busy")
      assert.strictEqual((yield* chain.confirm(lost))._tag, "Pending")

      yield* TestClock.adjust(`${lost.validUntil - lost.createdAt} seconds`)
      assert.strictEqual((yield* chain.confirm(lost))._tag, "Pending", "still inside the margin")
      yield* TestClock.adjust("5 minutes")
      assert.strictEqual(
        (yield* chain.confirm(lost))._tag,
        "Pending",
        "our clock says dead, the node has not seen that time yet"
      )
      const late = yield* Effect.gen(function* () {
        emulator.now = lost.validUntil + 11 // the chain moves past valid_until + margin
        assert.strictEqual((yield* chain.confirm(lost))._tag, "Expired")
        return yield* Effect.flip(chain.send(lost)) // and the old message can indeed never execute
      }).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            emulator.now = undefined
          })
        )
      )
      assert.deepStrictEqual([late.reason, late.exitCode], ["Rejected", 36])
      assert.strictEqual(yield* chain.balance(address), ton(2))

      yield* atRealTime
      yield* pay(wallet, freshAddress(false), ton(1))
    })
  )

  it.effect("answer lost after the node applied the send: confirm finds it, nothing is paid twice", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const chain = yield* Blockchain
      const phrase = yield* bip39Words12
      const address = yield* fundedWallet(phrase, "v5r1", "bip39", ton(3))
      const wallet = yield* chain.resolveWallet(phrase)
      const to = freshAddress(false)
      const prepared = yield* chain.prepareTransfer(wallet, { to, amount: ton(1) })
      ;(yield* SendFaults).push("lostAfterApply")
      const lost = yield* Effect.flip(chain.send(prepared))
      assert.strictEqual(lost.reason, "NetworkError")
      const status = yield* chain.confirm(prepared)
      assert(status._tag === "Confirmed")
      // Re-sending the same BOC is harmless: the seqno stops it.
      const replay = yield* Effect.flip(chain.send(prepared))
      assert.deepStrictEqual([replay.reason, replay.exitCode], ["Rejected", 133])
      assert.strictEqual((yield* chain.confirm(prepared))._tag, "Confirmed")
      assert.strictEqual((yield* incoming(to)).length, 1)
      assert.strictEqual(yield* chain.balance(address), ton(2) - status.fee)
    })
  )

  it.effect("answer lost before the node saw it: still pending, the same BOC sent again pays once", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const chain = yield* Blockchain
      const phrase = yield* bip39Words12
      yield* fundedWallet(phrase, "v4r2", "bip39", ton(3))
      const wallet = yield* chain.resolveWallet(phrase)
      const to = freshAddress(false)
      const prepared = yield* chain.prepareTransfer(wallet, { to, amount: ton(1) })
      ;(yield* SendFaults).push("lostBeforeApply")
      assert.strictEqual((yield* Effect.flip(chain.send(prepared))).reason, "NetworkError")
      assert.strictEqual((yield* chain.confirm(prepared))._tag, "Pending")
      // No new message while the outcome is unknown.
      const busy = yield* Effect.flip(chain.prepareTransfer(wallet, { to, amount: ton(1) }))
      assert.strictEqual(busy.reason, "Busy")
      yield* chain.send(prepared)
      assert.strictEqual((yield* chain.confirm(prepared))._tag, "Confirmed")
      assert.strictEqual((yield* Effect.flip(chain.send(prepared))).exitCode, 33)
      assert.strictEqual((yield* incoming(to)).length, 1)
    })
  )
}
