import { assert, layer } from "@effect/vitest"
import type { UserId } from "@resale/core/ids.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { Effect } from "effect"
import { cli, CliTestLayer, json, seedUser } from "./support/CliHarness.ts"

const operator = { kind: "operator" as const }
// What a shopper typed to retitle the operator's window and fake an "OK" over the current line.
const ATTACK = "\x1b]0;pwned\x07\x1b[2K\r\x1b[32mOK"

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
          listed.tickets.map((t: { ticket_id: number }) => t.ticket_id),
          [ticket.id]
        )
        assert.strictEqual(listed.tickets[0].last_author, "user")

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

    it.effect("a shopper's control characters reach the operator's terminal escaped, never raw", () =>
      Effect.gen(function* () {
        const eve = yield* seedUser("eve_tickets")
        const ticket = yield* openTicket(eve.id, ATTACK, `first line\n${ATTACK}\u202e reversed\nlast line`)
        const runs = {
          list: yield* cli(["tickets", "list", "--user", "@eve_tickets"]),
          show: yield* cli(["tickets", "show", String(ticket.id)]),
          json: yield* cli(["tickets", "show", String(ticket.id), "--json"])
        }
        for (const [name, run] of Object.entries(runs)) {
          assert.strictEqual(run.code, 0, `${name}: ${run.stderr}`)
          for (const raw of ["\x1b", "\x07", "\r", "\u202e"]) {
            assert.notInclude(run.stdout + run.stderr, raw, `${name} printed ${JSON.stringify(raw)} raw`)
          }
        }
        const escaped = "\\x1b]0;pwned\\x07\\x1b[2K\\r\\x1b[32mOK"
        assert.include(runs.list.stdout, escaped.slice(0, 40))
        assert.include(runs.show.stdout, `Subject:     ${escaped}`)
        // The body keeps its lines, indented under the message's heading.
        assert.include(runs.show.stdout, `    first line\n    ${escaped}\\u202e reversed\n    last line`)
        // --json is the exact text, escaped by JSON itself.
        const shown = json(runs.json)
        assert.strictEqual(shown.ticket.subject, ATTACK)
        assert.strictEqual(shown.messages[0].body, `first line\n${ATTACK}\u202e reversed\nlast line`)
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
