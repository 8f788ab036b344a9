import { assert } from "@effect/vitest"
import {
  balanceMovement,
  DEFAULT_PRICES,
  newOrderCharge,
  type OrderId,
  type Prices,
  type SignedUzs,
  type TicketId,
  type UserId,
  type Uzs
} from "@resale/core"
import { Ledger, type NewOrder, Orders, Pricing, Tickets } from "@resale/core/ports"
import { Effect, Option } from "effect"
import { at, booked, newUser, type StoreTest, t0 } from "./support.ts"

const stars = (userId: UserId, n = 100): NewOrder => ({
  userId,
  recipient: "durov",
  item: { kind: "stars", stars: n },
  priceUzs: (n * 230) as Uzs
})

/** `order` with core's charge of it at `prices`, as `OrderService.place` hands them to the store. */
const chargedAt = (order: NewOrder, prices: Prices) => [order, newOrderCharge(order, prices)] as const

export const ordersContract = (test: StoreTest) => {
  test(
    "insert queues an order with its item; find and list (filters, newest first, total)",
    Effect.gen(function* () {
      const orders = yield* Orders
      const user = yield* newUser(1)
      const other = yield* newUser(2)
      const a = yield* orders.insert(stars(user.id), t0)
      const gift: NewOrder = {
        userId: user.id,
        recipient: "friend_1",
        item: {
          kind: "gift",
          giftId: "5170145012310081615",
          giftStars: 15,
          comment: null,
          senderAccount: "girl",
          anonymous: true
        },
        priceUzs: 3450 as Uzs
      }
      const b = yield* orders.insert(gift, at(1))
      yield* orders.insert({ ...stars(other.id), item: { kind: "premium", months: 6 } }, at(2))
      assert.strictEqual(a.status, "queued")
      assert.strictEqual(a.chargeSeq, 0)
      assert.strictEqual(a.attempts, 0)
      assert.isNull(a.nextAttemptAt)
      assert.deepStrictEqual(Option.getOrThrow(yield* orders.find(b.id)).item, gift.item)
      assert.isTrue(Option.isNone(yield* orders.find(999 as OrderId)))
      const own = yield* orders.list({ userId: user.id, offset: 0, limit: 10 })
      assert.deepStrictEqual(
        own.items.map((o) => o.id),
        [b.id, a.id]
      )
      assert.strictEqual((yield* orders.list({ kind: "premium", offset: 0, limit: 10 })).total, 1)
      assert.strictEqual((yield* orders.list({ status: ["completed", "failed"], offset: 0, limit: 10 })).total, 0)
      assert.strictEqual((yield* orders.list({ offset: 5, limit: 10 })).total, 3)
    })
  )

  test(
    "insertCharged places the order with its charge and answers the balance right after it; short, nothing",
    Effect.gen(function* () {
      const orders = yield* Orders
      const ledger = yield* Ledger
      const user = yield* newUser(6)
      yield* ledger.post(
        balanceMovement({ userId: user.id, amount: 50_000 as SignedUzs, cause: "adjust", causeId: "fund-6" })
      )
      const first = yield* orders.insertCharged(...chargedAt(stars(user.id), DEFAULT_PRICES), t0)
      assert.strictEqual(first.order.status, "queued")
      assert.strictEqual(first.balanceAfter, 50_000 - 23_000)
      const second = yield* orders.insertCharged(...chargedAt(stars(user.id, 10), DEFAULT_PRICES), at(1))
      assert.strictEqual(second.balanceAfter, 50_000 - 23_000 - 2_300)
      assert.deepStrictEqual(yield* booked(user.id), { balance: 24_700, sum: 24_700, entries: 3 })
      const short = yield* Effect.flip(orders.insertCharged(...chargedAt(stars(user.id, 200), DEFAULT_PRICES), at(2)))
      assert.strictEqual(short._tag, "InsufficientBalance")
      assert.deepStrictEqual(yield* booked(user.id), { balance: 24_700, sum: 24_700, entries: 3 })
      assert.strictEqual((yield* orders.list({ userId: user.id, offset: 0, limit: 10 })).total, 2)
    })
  )

  test(
    "insertCharged charges only at the current price list; quoted at another, PricesChanged and nothing written",
    Effect.gen(function* () {
      const orders = yield* Orders
      const user = yield* newUser(7)
      yield* (yield* Ledger).post(
        balanceMovement({ userId: user.id, amount: 100_000 as SignedUzs, cause: "adjust", causeId: "fund-7" })
      )
      const raised = { ...DEFAULT_PRICES, starPriceUzs: 250 as Uzs }
      assert.strictEqual(
        (yield* Effect.flip(orders.insertCharged(...chargedAt(stars(user.id), raised), t0)))._tag,
        "PricesChanged"
      )
      yield* (yield* Pricing).set(raised, t0)
      // Stale and short of balance at once: the stale list is what is reported.
      assert.strictEqual(
        (yield* Effect.flip(orders.insertCharged(...chargedAt(stars(user.id, 1000), DEFAULT_PRICES), t0)))._tag,
        "PricesChanged"
      )
      assert.strictEqual(
        (yield* Effect.flip(orders.insertCharged(...chargedAt(stars(user.id), DEFAULT_PRICES), t0)))._tag,
        "PricesChanged"
      )
      assert.deepStrictEqual(yield* booked(user.id), { balance: 100_000, sum: 100_000, entries: 1 })
      assert.strictEqual((yield* orders.list({ userId: user.id, offset: 0, limit: 10 })).total, 0)
      const placed = yield* orders.insertCharged(
        ...chargedAt({ ...stars(user.id), priceUzs: 25_000 as Uzs }, raised),
        t0
      )
      assert.strictEqual(placed.balanceAfter, 75_000)
    })
  )

  test(
    "insertCharged applies exactly the charge core passed: its amount, note, floor and the cause id around the new id",
    Effect.gen(function* () {
      const orders = yield* Orders
      const ledger = yield* Ledger
      const user = yield* newUser(8)
      yield* ledger.post(
        balanceMovement({ userId: user.id, amount: 30_000 as SignedUzs, cause: "adjust", causeId: "fund-8" })
      )
      const order = stars(user.id)
      const charge = {
        ...newOrderCharge(order, DEFAULT_PRICES),
        causeId: { before: "x-", after: "-y" },
        note: "by hand",
        minBalanceAfter: 7_001 as Uzs
      }
      const short = yield* Effect.flip(orders.insertCharged(order, charge, t0))
      assert.strictEqual(short._tag, "InsufficientBalance")
      assert.deepStrictEqual(yield* booked(user.id), { balance: 30_000, sum: 30_000, entries: 1 })
      const placed = yield* orders.insertCharged(order, { ...charge, minBalanceAfter: 7_000 as Uzs }, t0)
      assert.strictEqual(placed.balanceAfter, 7_000)
      const [entry] = (yield* ledger.entries(user.id, { offset: 0, limit: 1 })).items
      assert.deepStrictEqual(
        { amount: entry?.amount, cause: entry?.cause, causeId: entry?.causeId, note: entry?.note },
        { amount: -23_000, cause: "order", causeId: `x-${placed.order.id}-y`, note: "by hand" }
      )
    })
  )

  test(
    "transition is conditional and patches only the given fields (null clears)",
    Effect.gen(function* () {
      const orders = yield* Orders
      const user = yield* newUser(3)
      const order = yield* orders.insert(stars(user.id), t0)
      const retrying = yield* orders.transition(
        order.id,
        ["queued"],
        "queued",
        {
          attempts: 1,
          lastError: "marketplace timeout",
          nextAttemptAt: at(30_000),
          fragmentRef: "Ref#abc"
        },
        at(1)
      )
      assert.strictEqual(retrying.attempts, 1)
      assert.deepStrictEqual(retrying.nextAttemptAt, at(30_000))
      const done = yield* orders.transition(
        order.id,
        ["queued", "processing"],
        "completed",
        {
          txId: "tx-hash",
          completedAt: at(2),
          lastError: null
        },
        at(2)
      )
      assert.strictEqual(done.status, "completed")
      assert.strictEqual(done.txId, "tx-hash")
      assert.isNull(done.lastError)
      assert.strictEqual(done.attempts, 1)
      assert.strictEqual(done.fragmentRef, "Ref#abc")
      assert.deepStrictEqual(done.completedAt, at(2))
      const invalid = yield* Effect.flip(orders.transition(order.id, ["failed"], "queued", { chargeSeq: 1 }, at(3)))
      assert.strictEqual(invalid._tag, "OrderTransitionInvalid")
      if (invalid._tag === "OrderTransitionInvalid") assert.strictEqual(invalid.from, "completed")
      assert.strictEqual(Option.getOrThrow(yield* orders.find(order.id)).chargeSeq, 0)
      const missing = yield* Effect.flip(orders.transition(999 as OrderId, ["queued"], "failed", {}, at(3)))
      assert.strictEqual(missing._tag, "OrderNotFound")
    })
  )

  test(
    "a gift's send marker is its giftRef, apart from the Fragment Ref# of stars and premium",
    Effect.gen(function* () {
      const orders = yield* Orders
      const user = yield* newUser(5)
      const gift = yield* orders.insert(
        {
          userId: user.id,
          recipient: "friend_2",
          item: {
            kind: "gift",
            giftId: "5170145012310081615",
            giftStars: 15,
            comment: "hi",
            senderAccount: null,
            anonymous: false
          },
          priceUzs: 3450 as Uzs
        },
        t0
      )
      assert.isNull(gift.giftRef)
      const marked = yield* orders.transition(
        gift.id,
        ["queued"],
        "processing",
        { giftRef: "gift@2026-01-01T00:00:00.000Z" },
        at(1)
      )
      assert.deepStrictEqual([marked.giftRef, marked.fragmentRef], ["gift@2026-01-01T00:00:00.000Z", null])
      const cleared = yield* orders.transition(gift.id, ["processing"], "processing", { giftRef: null }, at(2))
      assert.isNull(cleared.giftRef)
      const star = yield* orders.transition(
        (yield* orders.insert(stars(user.id), t0)).id,
        ["queued"],
        "processing",
        { fragmentRef: "Ref#x" },
        at(1)
      )
      assert.deepStrictEqual([star.fragmentRef, star.giftRef], ["Ref#x", null])
    })
  )

  test(
    "claimNext takes due queued orders oldest first, each once",
    Effect.gen(function* () {
      const orders = yield* Orders
      const user = yield* newUser(4)
      const first = yield* orders.insert(stars(user.id), t0)
      const second = yield* orders.insert(stars(user.id), t0)
      const third = yield* orders.insert(stars(user.id), t0)
      yield* orders.transition(first.id, ["queued"], "queued", { nextAttemptAt: at(60_000) }, t0)
      const claimed = Option.getOrThrow(yield* orders.claimNext(at(1)))
      assert.strictEqual(claimed.id, second.id)
      assert.strictEqual(claimed.status, "processing")
      assert.strictEqual(Option.getOrThrow(yield* orders.claimNext(at(1))).id, third.id)
      assert.isTrue(Option.isNone(yield* orders.claimNext(at(1))))
      assert.strictEqual(Option.getOrThrow(yield* orders.claimNext(at(60_000))).id, first.id)
    })
  )

  test(
    "claimDue takes up to its limit of due queued orders at once, oldest first, each once",
    Effect.gen(function* () {
      const orders = yield* Orders
      const user = yield* newUser(4)
      const first = yield* orders.insert(stars(user.id), t0)
      const second = yield* orders.insert(stars(user.id), t0)
      const third = yield* orders.insert(stars(user.id), t0)
      const fourth = yield* orders.insert(stars(user.id), t0)
      yield* orders.transition(first.id, ["queued"], "queued", { nextAttemptAt: at(60_000) }, t0)
      const claimed = yield* orders.claimDue(at(1), 2)
      assert.deepStrictEqual(
        claimed.map((o) => [o.id, o.status]),
        [
          [second.id, "processing"],
          [third.id, "processing"]
        ]
      )
      assert.deepStrictEqual(
        (yield* orders.claimDue(at(1), 5)).map((o) => o.id),
        [fourth.id]
      )
      assert.deepStrictEqual(yield* orders.claimDue(at(1), 5), [])
      assert.deepStrictEqual(yield* orders.claimDue(at(60_000), 0), [])
      assert.deepStrictEqual(
        (yield* orders.claimDue(at(60_000), 5)).map((o) => o.id),
        [first.id]
      )
    })
  )

  test(
    "touch keeps the leases of the given processing orders, in one call, and leaves the others",
    Effect.gen(function* () {
      const orders = yield* Orders
      const user = yield* newUser(4)
      const held = yield* orders.insert(stars(user.id), t0)
      const queued = yield* orders.insert(stars(user.id), t0)
      const other = yield* orders.insert(stars(user.id), t0)
      yield* orders.transition(held.id, ["queued"], "processing", {}, t0)
      yield* orders.transition(other.id, ["queued"], "processing", {}, t0)
      yield* orders.touch([held.id, queued.id], at(30_000))
      yield* orders.touch([], at(60_000))
      const updated = (id: typeof held.id) =>
        Effect.map(orders.find(id), (o) => Option.getOrThrow(o).updatedAt.getTime())
      assert.strictEqual(yield* updated(held.id), at(30_000).getTime())
      assert.strictEqual(yield* updated(queued.id), t0.getTime())
      assert.strictEqual(yield* updated(other.id), t0.getTime())
    })
  )
}

export const ticketsContract = (test: StoreTest) => {
  test(
    "create opens a ticket with its first message; addMessage and messagesAfter page by id",
    Effect.gen(function* () {
      const tickets = yield* Tickets
      const user = yield* newUser(5)
      const { message, ticket } = yield* tickets.create({
        userId: user.id,
        subject: "Where are my stars?",
        body: "Order 5",
        now: t0
      })
      assert.strictEqual(ticket.status, "open")
      assert.strictEqual(ticket.lastAuthor, "user")
      assert.strictEqual(message.ticketId, ticket.id)
      assert.strictEqual(message.body, "Order 5")
      const reply = yield* tickets.addMessage({
        ticketId: ticket.id,
        author: "operator",
        body: "Sent now",
        now: at(10)
      })
      assert.isTrue(reply.id > message.id)
      const after = yield* tickets.messagesAfter(ticket.id, message.id)
      assert.deepStrictEqual(
        after.map((m) => [m.author, m.body]),
        [["operator", "Sent now"]]
      )
      assert.strictEqual((yield* tickets.messagesAfter(ticket.id, 0)).length, 2)
      assert.strictEqual((yield* tickets.messagesAfter(ticket.id, reply.id)).length, 0)
      const updated = Option.getOrThrow(yield* tickets.find(ticket.id))
      assert.strictEqual(updated.lastAuthor, "operator")
      assert.deepStrictEqual(updated.updatedAt, at(10))
      assert.strictEqual(updated.status, "open")
      const missing = yield* Effect.flip(
        tickets.addMessage({ ticketId: 999 as TicketId, author: "user", body: "x", now: t0 })
      )
      assert.strictEqual(missing._tag, "TicketNotFound")
    })
  )

  test(
    "setStatus closes and reopens; list filters and orders by last update",
    Effect.gen(function* () {
      const tickets = yield* Tickets
      const ann = yield* newUser(6)
      const ben = yield* newUser(7)
      const a = (yield* tickets.create({ userId: ann.id, subject: "a", body: "a", now: t0 })).ticket
      const b = (yield* tickets.create({ userId: ben.id, subject: "b", body: "b", now: at(1) })).ticket
      yield* tickets.addMessage({ ticketId: a.id, author: "user", body: "ping", now: at(2) })
      assert.deepStrictEqual(
        (yield* tickets.list({ offset: 0, limit: 10 })).items.map((t) => t.id),
        [a.id, b.id]
      )
      assert.strictEqual((yield* tickets.setStatus(b.id, "closed", at(3))).status, "closed")
      assert.deepStrictEqual(
        (yield* tickets.list({ status: "open", offset: 0, limit: 10 })).items.map((t) => t.id),
        [a.id]
      )
      assert.deepStrictEqual(
        (yield* tickets.list({ userId: ben.id, offset: 0, limit: 10 })).items.map((t) => t.status),
        ["closed"]
      )
      assert.strictEqual((yield* tickets.setStatus(b.id, "open", at(4))).status, "open")
      const missing = yield* Effect.flip(tickets.setStatus(999 as TicketId, "closed", t0))
      assert.strictEqual(missing._tag, "TicketNotFound")
    })
  )
}
