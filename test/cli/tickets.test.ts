import { assert, layer } from "@effect/vitest"
import type { UserId } from "@resale/core/ids.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { Effect } from "effect"
import { cli, CliTestLayer, json, seedUser } from "./support/CliHarness.ts"

const operator = { kind: "operator" as const }

const openTicket = (userId: UserId, subject: string, body: string) =>
  TicketService.use((t) => t.create(userId, { subject, body })).pipe(
    Effect.orDie,
    Effect.map((d) => d.ticket)
  )

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale tickets (in process, real PostgreSQL)",
  (it) => {
    it.effect("list and show; reply adds an operator message the user can read", () =>
      Effect.gen(function* () {
        const ann = yield* seedUser("ann_tickets")
        const ticket = yield* openTicket(ann.id, "Stars not delivered", "I paid for 500 stars an hour ago")

        const listed = json(yield* cli(["tickets", "list", "--status", "open", "--json"]))
        assert.deepStrictEqual(
          listed.items.map((t: { id: number }) => t.id),
          [ticket.id]
        )
        assert.strictEqual(listed.items[0].lastAuthor, "user")

        const table = yield* cli(["tickets", "list"])
        assert.match(
          table.stdout,
          new RegExp(`^\\s*${ticket.id}\\s+${ann.id}\\s+open\\s+yes\\s+Stars not delivered`, "m")
        )

        const reply = yield* cli([
          "tickets",
          "reply",
          String(ticket.id),
          "--body",
          "Delivered now, sorry for the wait.",
          "--json"
        ])
        assert.strictEqual(reply.code, 0, reply.stderr)
        assert.strictEqual(json(reply).author, "operator")

        const seenByUser = yield* TicketService.use((t) => t.detail({ kind: "user", userId: ann.id }, ticket.id)).pipe(
          Effect.orDie
        )
        assert.deepStrictEqual(
          seenByUser.messages.map((m) => [m.author, m.body]),
          [
            ["user", "I paid for 500 stars an hour ago"],
            ["operator", "Delivered now, sorry for the wait."]
          ]
        )

        const shown = yield* cli(["tickets", "show", String(ticket.id)])
        assert.strictEqual(shown.code, 0)
        assert.match(shown.stdout, /Waiting for:\s+user/)
        assert.include(shown.stdout, "operator at")
        assert.include(shown.stdout, "Delivered now, sorry for the wait.")
        const shownJson = json(yield* cli(["tickets", "show", String(ticket.id), "--json"]))
        assert.strictEqual(shownJson.messages.length, 2)
      })
    )

    it.effect("close and reopen; closing twice is an invalid transition", () =>
      Effect.gen(function* () {
        const bob = yield* seedUser("bob_tickets")
        const ticket = yield* openTicket(bob.id, "API key", "How do I get one?")

        const closed = yield* cli(["tickets", "close", String(ticket.id)])
        assert.strictEqual(closed.code, 0, closed.stderr)
        assert.include(closed.stdout, `Ticket #${ticket.id} is closed.`)
        const twice = yield* cli(["tickets", "close", String(ticket.id), "--json"])
        assert.strictEqual(twice.code, 1)
        assert.deepStrictEqual(json(twice), {
          ok: false,
          code: "TicketTransitionInvalid",
          message: `Ticket #${ticket.id} is already closed.`
        })

        const reopened = json(yield* cli(["tickets", "reopen", String(ticket.id), "--json"]))
        assert.strictEqual(reopened.status, "open")
        assert.strictEqual(
          (yield* TicketService.use((t) => t.detail(operator, ticket.id)).pipe(Effect.orDie)).ticket.status,
          "open"
        )
        const reopenOpen = yield* cli(["tickets", "reopen", String(ticket.id)])
        assert.strictEqual(reopenOpen.code, 1)
        assert.include(reopenOpen.stderr, "is already open")
      })
    )

    it.effect("unknown tickets, empty or missing bodies and bad statuses are reported clearly", () =>
      Effect.gen(function* () {
        const missing = yield* cli(["tickets", "reply", "999999", "--body", "hello"])
        assert.strictEqual(missing.code, 1)
        assert.include(missing.stderr, "Ticket #999999 does not exist.")
        const noBody = yield* cli(["tickets", "reply", "1"])
        assert.strictEqual(noBody.code, 2)
        assert.include(noBody.stderr, "required option '--body <text>' not specified")
        const blank = yield* cli(["tickets", "reply", "1", "--body", "   "])
        assert.strictEqual(blank.code, 2)
        const badStatus = yield* cli(["tickets", "list", "--status", "pending"])
        assert.strictEqual(badStatus.code, 2)
        assert.include(badStatus.stderr, "Allowed choices are open, closed")
      })
    )
  }
)
