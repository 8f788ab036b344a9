import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import type { TopupId } from "../src/ids.ts"
import { Balances } from "../src/ledger/Balances.ts"
import { fund, signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { TopupService } from "../src/topups/TopupService.ts"
import { TopupSettings } from "../src/topups/TopupSettings.ts"
import { AccountCaps, DEFAULT_ACCOUNT_CAPS } from "../src/caps/CapSettings.ts"

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const PDF = new TextEncoder().encode("%PDF-1.7\n...")

const outboxKinds = Effect.map(MemoryDb, (db) => [...db.state().outbox.values()].map((e) => e.kind))

describe("TopupService.create", () => {
  it.effect("gives each pending top-up a payable amount unique among pending ones, smallest offset first", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const a = yield* topups.create(alice.id, 50_000)
      const b = yield* topups.create(bob.id, 50_000)
      const c = yield* topups.create(alice.id, 50_000)
      assert.deepStrictEqual([a.payableUzs, b.payableUzs, c.payableUzs], [50_000, 50_001, 50_002])
      assert.deepStrictEqual([a.status, a.method, a.requestedUzs], ["pending", "card", 50_000])
      // a different amount whose payable would collide with b's moves on too
      const d = yield* topups.create(bob.id, 50_001)
      assert.strictEqual(d.payableUzs, 50_003)
      // a cancelled top-up's offset stays quarantined for everyone else (a late bank payment must not
      // credit someone else), but its owner gets it back (a late payment for it credits the same account)
      yield* topups.cancel(bob.id, b.id)
      const e = yield* topups.create(alice.id, 50_000)
      assert.strictEqual(e.payableUzs, 50_004)
      const f = yield* topups.create(bob.id, 50_000)
      assert.strictEqual(f.payableUzs, 50_001)
      const payables = [a, c, d, e, f].map((t) => t.payableUzs)
      assert.strictEqual(new Set(payables).size, payables.length)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect(
    "fails TopupPayableExhausted when all 1,000 offsets are pending",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const alice = yield* signUp()
        for (let i = 0; i < 1000; i++) yield* topups.create(alice.id, 10_000)
        const error = yield* Effect.flip(topups.create(alice.id, 10_000))
        assert.strictEqual(error._tag, "TopupPayableExhausted")
        assert.strictEqual((yield* topups.create(alice.id, 20_000)).payableUzs, 20_000)
      }).pipe(
        // Far beyond what one account may hold: the store's own limit is under test here.
        Effect.provide(layerMemory),
        Effect.provideService(AccountCaps, { ...DEFAULT_ACCOUNT_CAPS, openCardTopups: 2000, topupsPerDay: 2000 })
      ),
    60_000
  )

  it.effect("enforces min 1,000 and max 100,000,000 whole so'm (configurable)", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      for (const amount of [999, 0, -5, 1000.5, 100_000_001, Number.NaN]) {
        const error = yield* Effect.flip(topups.create(alice.id, amount))
        assert.strictEqual(error._tag, "TopupAmountInvalid")
      }
      assert.strictEqual((yield* topups.create(alice.id, 1000)).requestedUzs, 1000)
      assert.strictEqual((yield* topups.create(alice.id, 100_000_000)).requestedUzs, 100_000_000)
      // Settings are read when the service is built: a fresh one over the same ports, with the override.
      const stricter = yield* Effect.flip(TopupService.use((t) => t.create(alice.id, 4000))).pipe(
        Effect.provide(
          TopupService.layer.pipe(
            Layer.provide(
              Layer.succeed(TopupSettings)({ minUzs: 5000, maxUzs: 10_000, ttlMs: 60_000, receiptMaxBytes: 100 })
            )
          ),
          { local: true }
        )
      )
      assert.deepStrictEqual(
        [stricter._tag, stricter._tag === "TopupAmountInvalid" && stricter.min],
        ["TopupAmountInvalid", 5000]
      )
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("TopupService expiry", () => {
  it.effect("expires pending top-ups after 15 minutes, once, with a notification", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 30_000)
      assert.strictEqual(t.expiresAt?.getTime(), t.createdAt.getTime() + 15 * 60_000)
      yield* TestClock.adjust("14 minutes")
      assert.strictEqual((yield* topups.expireDue).length, 0)
      yield* TestClock.adjust("1 minute")
      const expired = yield* topups.expireDue
      assert.deepStrictEqual(
        expired.map((x) => [x.id, x.status]),
        [[t.id, "expired"]]
      )
      assert.strictEqual((yield* topups.expireDue).length, 0)
      assert.deepStrictEqual(yield* outboxKinds, ["topup.expired"])
      const late = yield* Effect.flip(topups.approve(t.id))
      assert.deepStrictEqual(
        [late._tag, late._tag === "TopupTransitionInvalid" && late.from],
        ["TopupTransitionInvalid", "expired"]
      )
      // its payable amount stays quarantined for a day for everyone but its owner, then is free again
      const bob = yield* signUp()
      const bobs = yield* topups.create(bob.id, 30_000)
      assert.strictEqual(bobs.payableUzs, 30_001)
      yield* topups.cancel(bob.id, bobs.id)
      yield* TestClock.adjust("25 hours")
      const carol = yield* signUp()
      assert.strictEqual((yield* topups.create(carol.id, 30_000)).payableUzs, 30_000)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("TopupService owner and operator transitions", () => {
  it.effect("approve credits the payable amount exactly once and notifies", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const balances = yield* Balances
      const alice = yield* signUp()
      const bob = yield* signUp()
      yield* topups.create(bob.id, 20_000)
      const t = yield* topups.create(alice.id, 20_000)
      assert.strictEqual(t.payableUzs, 20_001)
      const paid = yield* topups.approve(t.id, "checked the bank app")
      assert.deepStrictEqual(
        [paid.status, paid.creditedUzs, paid.confirmedBy, paid.adminNote],
        ["paid", 20_001, "operator", "checked the bank app"]
      )
      assert.strictEqual(yield* balances.balance(alice.id), 20_001)
      const twice = yield* Effect.flip(topups.markPaid(t.id))
      assert.strictEqual(twice._tag, "TopupTransitionInvalid")
      assert.strictEqual(yield* balances.balance(alice.id), 20_001)
      assert.strictEqual((yield* balances.entries(alice.id, { offset: 0, limit: 10 })).items[0]?.causeId, `${t.id}`)
      assert.deepStrictEqual(yield* outboxKinds, ["topup.paid"])
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("mark-paid (admin API) confirms a pending top-up", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 5_000)
      const paid = yield* topups.markPaid(t.id)
      assert.deepStrictEqual([paid.status, paid.confirmedBy], ["paid", "admin_api"])
      assert.strictEqual(yield* (yield* Balances).balance(alice.id), 5_000)
      assert.strictEqual((yield* Effect.flip(topups.markPaid(999 as TopupId)))._tag, "TopupNotFound")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("cancel: owner only, pending or review only", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const mallory = yield* signUp()
      const t = yield* topups.create(alice.id, 5_000)
      assert.strictEqual((yield* Effect.flip(topups.cancel(mallory.id, t.id)))._tag, "TopupNotFound")
      assert.strictEqual((yield* topups.cancel(alice.id, t.id)).status, "cancelled")
      const again = yield* Effect.flip(topups.cancel(alice.id, t.id))
      assert.deepStrictEqual(
        [again._tag, again._tag === "TopupTransitionInvalid" && again.from],
        ["TopupTransitionInvalid", "cancelled"]
      )
      const paid = yield* topups.create(alice.id, 6_000)
      yield* topups.approve(paid.id)
      assert.strictEqual((yield* Effect.flip(topups.cancel(alice.id, paid.id)))._tag, "TopupTransitionInvalid")
      assert.strictEqual((yield* Effect.flip(topups.approve(t.id)))._tag, "TopupTransitionInvalid")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("reject: pending or review -> rejected, nothing credited; a paid one cannot be rejected", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.createWithReceipt(alice.id, 70_000, PNG)
      const rejected = yield* topups.reject(t.id, "receipt is for another card")
      assert.deepStrictEqual([rejected.status, rejected.adminNote], ["rejected", "receipt is for another card"])
      assert.strictEqual(yield* (yield* Balances).balance(alice.id), 0)
      const p = yield* topups.create(alice.id, 5_000)
      yield* topups.approve(p.id)
      const error = yield* Effect.flip(topups.reject(p.id))
      assert.deepStrictEqual(
        [error._tag, error._tag === "TopupTransitionInvalid" && error.from],
        ["TopupTransitionInvalid", "paid"]
      )
      assert.deepStrictEqual(yield* outboxKinds, ["topup.review", "topup.rejected", "topup.paid"])
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("listOwn shows only the owner's top-ups, filtered by status; find hides others'", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const a1 = yield* topups.create(alice.id, 1_000)
      yield* topups.create(alice.id, 2_000)
      yield* topups.create(bob.id, 3_000)
      yield* topups.cancel(alice.id, a1.id)
      const pending = yield* topups.listOwn(alice.id, { status: ["pending", "review"], offset: 0, limit: 20 })
      assert.deepStrictEqual(
        pending.items.map((t) => t.requestedUzs),
        [2_000]
      )
      assert.strictEqual((yield* topups.listOwn(alice.id, { offset: 0, limit: 20 })).total, 2)
      assert.strictEqual((yield* topups.list({ offset: 0, limit: 20 })).total, 3)
      assert.strictEqual(
        (yield* Effect.flip(topups.find({ kind: "user", userId: bob.id }, a1.id)))._tag,
        "TopupNotFound"
      )
      assert.strictEqual((yield* topups.find({ kind: "operator" }, a1.id)).id, a1.id)
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("TopupService receipts", () => {
  it.effect("a receipt top-up awaits review; approving credits the stated amount", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      yield* fund(alice, 100)
      const t = yield* topups.createWithReceipt(alice.id, 45_000, PDF)
      assert.deepStrictEqual([t.status, t.method, t.payableUzs, t.expiresAt], ["review", "receipt", 45_000, null])
      assert.deepStrictEqual([t.receipt?.contentType, t.receipt?.size], ["application/pdf", PDF.length])
      yield* topups.approve(t.id)
      assert.strictEqual(yield* (yield* Balances).balance(alice.id), 45_100)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("the receipt file is readable by its owner and operators only", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const t = yield* topups.createWithReceipt(alice.id, 45_000, PNG)
      const own = yield* topups.receipt({ kind: "user", userId: alice.id }, t.id)
      assert.deepStrictEqual([Array.from(own.bytes), own.contentType], [Array.from(PNG), "image/png"])
      assert.strictEqual((yield* topups.receipt({ kind: "operator" }, t.id)).contentType, "image/png")
      assert.strictEqual(
        (yield* Effect.flip(topups.receipt({ kind: "user", userId: bob.id }, t.id)))._tag,
        "TopupNotFound"
      )
      const card = yield* topups.create(alice.id, 1_000)
      assert.strictEqual(
        (yield* Effect.flip(topups.receipt({ kind: "user", userId: alice.id }, card.id)))._tag,
        "ReceiptNotFound"
      )
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("rejects receipts that are not images or PDFs by content, empty or too large", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const html = new TextEncoder().encode("<html><script>alert(1)</script>")
      const reasons = yield* Effect.all([
        Effect.flip(topups.createWithReceipt(alice.id, 5_000, html)),
        Effect.flip(topups.createWithReceipt(alice.id, 5_000, new Uint8Array())),
        Effect.flip(topups.createWithReceipt(alice.id, 5_000, new Uint8Array(11 * 1024 * 1024).fill(0xff)))
      ])
      assert.deepStrictEqual(
        reasons.map((e) => (e._tag === "ReceiptInvalid" ? e.reason : e._tag)),
        ["UnsupportedType", "Empty", "TooLarge"]
      )
      const db = yield* MemoryDb
      assert.strictEqual(db.state().topups.size, 0)
      assert.strictEqual(db.state().receipts.size, 0)
      assert.isTrue(Option.isNone(yield* Effect.option(topups.createWithReceipt(alice.id, 500, PNG))))
    }).pipe(Effect.provide(layerMemory))
  )
})
