import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { TicketId } from "../src/ids.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { TicketService } from "../src/tickets/TicketService.ts"

describe("TicketService", () => {
  it.effect("create: first message from the body, default subject; an empty ticket is refused", () =>
    Effect.gen(function* () {
      const tickets = yield* TicketService
      const alice = yield* signUp()
      const a = yield* tickets.create(alice.id, { subject: "  Stars not arrived ", body: "Order 12 is stuck" })
      assert.deepStrictEqual(
        [a.ticket.subject, a.ticket.status, a.ticket.lastAuthor],
        ["Stars not arrived", "open", "user"]
      )
      assert.deepStrictEqual(
        a.messages.map((m) => [m.author, m.body]),
        [["user", "Order 12 is stuck"]]
      )
      const b = yield* tickets.create(alice.id, { body: "hello" })
      assert.strictEqual(b.ticket.subject, "Support request")
      const c = yield* tickets.create(alice.id, { subject: "Only a subject" })
      assert.strictEqual(c.messages[0]?.body, "Only a subject")
      const empty = yield* Effect.flip(tickets.create(alice.id, { subject: " ", body: "" }))
      assert.deepStrictEqual([empty._tag, empty.reason], ["TicketMessageInvalid", "Empty"])
      const long = yield* Effect.flip(tickets.create(alice.id, { body: "x".repeat(4001) }))
      assert.strictEqual(long.reason, "TooLong")
      assert.strictEqual(
        (yield* Effect.flip(tickets.create(alice.id, { subject: "s".repeat(201), body: "b" }))).reason,
        "TooLong"
      )
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("owners see only their tickets; someone else's is NotFound everywhere", () =>
    Effect.gen(function* () {
      const tickets = yield* TicketService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const mine = yield* tickets.create(alice.id, { body: "mine" })
      yield* tickets.create(bob.id, { body: "his" })
      const own = yield* tickets.listOwn(alice.id, { offset: 0, limit: 20 })
      assert.deepStrictEqual(
        own.items.map((t) => t.id),
        [mine.ticket.id]
      )
      const asBob = { kind: "user", userId: bob.id } as const
      const errors = yield* Effect.all([
        Effect.flip(tickets.detail(asBob, mine.ticket.id)),
        Effect.flip(tickets.poll(asBob, mine.ticket.id, 0)),
        Effect.flip(tickets.reply(bob.id, mine.ticket.id, "hi")),
        Effect.flip(tickets.detail(asBob, 999 as TicketId))
      ])
      assert.deepStrictEqual(
        errors.map((e) => e._tag),
        ["TicketNotFound", "TicketNotFound", "TicketNotFound", "TicketNotFound"]
      )
      assert.strictEqual((yield* tickets.list({ offset: 0, limit: 20 })).total, 2)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("poll returns exactly the messages after the cursor, in order", () =>
    Effect.gen(function* () {
      const tickets = yield* TicketService
      const alice = yield* signUp()
      const viewer = { kind: "user", userId: alice.id } as const
      const { messages, ticket } = yield* tickets.create(alice.id, { body: "one" })
      const other = yield* tickets.create(alice.id, { body: "elsewhere" })
      const cursor = messages[0]!.id
      assert.deepStrictEqual(yield* tickets.poll(viewer, ticket.id, cursor), [])
      const two = yield* tickets.answer(ticket.id, "two")
      yield* tickets.reply(alice.id, other.ticket.id, "noise")
      const three = yield* tickets.reply(alice.id, ticket.id, "three")
      const after = yield* tickets.poll(viewer, ticket.id, cursor)
      assert.deepStrictEqual(
        after.map((m) => [m.body, m.author]),
        [
          ["two", "operator"],
          ["three", "user"]
        ]
      )
      assert.isTrue(two.id < three.id)
      assert.deepStrictEqual(
        (yield* tickets.poll(viewer, ticket.id, two.id)).map((m) => m.body),
        ["three"]
      )
      assert.deepStrictEqual(yield* tickets.poll(viewer, ticket.id, three.id), [])
      assert.strictEqual((yield* tickets.poll({ kind: "operator" }, ticket.id, 0)).length, 3)
      assert.strictEqual((yield* tickets.detail(viewer, ticket.id)).messages.length, 3)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("operator answers notify the user; close and reopen are checked transitions", () =>
    Effect.gen(function* () {
      const tickets = yield* TicketService
      const alice = yield* signUp()
      const { ticket } = yield* tickets.create(alice.id, { body: "help" })
      yield* tickets.answer(ticket.id, "on it")
      const db = yield* MemoryDb
      const events = [...db.state().outbox.values()].map((e) => [e.kind, e.userId])
      assert.deepStrictEqual(events, [
        ["ticket.created", null],
        ["ticket.answered", alice.id]
      ])
      assert.strictEqual((yield* tickets.close(ticket.id)).status, "closed")
      const closedTwice = yield* Effect.flip(tickets.close(ticket.id))
      assert.deepStrictEqual(
        [closedTwice._tag, closedTwice._tag === "TicketTransitionInvalid" && closedTwice.from],
        ["TicketTransitionInvalid", "closed"]
      )
      // a user's reply to a closed ticket is kept and does not reopen it
      yield* tickets.reply(alice.id, ticket.id, "still broken")
      const detail = yield* tickets.detail({ kind: "operator" }, ticket.id)
      assert.deepStrictEqual([detail.ticket.status, detail.ticket.lastAuthor], ["closed", "user"])
      assert.strictEqual((yield* tickets.list({ status: "closed", offset: 0, limit: 10 })).total, 1)
      assert.strictEqual((yield* tickets.reopen(ticket.id)).status, "open")
      assert.strictEqual((yield* Effect.flip(tickets.reopen(ticket.id)))._tag, "TicketTransitionInvalid")
      assert.strictEqual((yield* Effect.flip(tickets.answer(ticket.id, "   ")))._tag, "TicketMessageInvalid")
      assert.strictEqual((yield* Effect.flip(tickets.close(404 as TicketId)))._tag, "TicketNotFound")
    }).pipe(Effect.provide(layerMemory))
  )
})
