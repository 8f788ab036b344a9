import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { WebhookOversight } from "@resale/core/webhooks/WebhookOversight.ts"
import { listPaging, peopleOf } from "@resale/wire/OperatorLists.ts"
import { userDetail, usersList } from "@resale/wire/OperatorPeople.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { NotFound } from "../api/Errors.ts"
import { pathId, pathIdOf } from "@resale/webkit/PanelFields.ts"
import { mapErrors } from "./ErrorMapping.ts"

const userIdOf = pathIdOf(UserId)
const userNotFound = new NotFound({ detail: "User not found", code: "user_not_found" })
const webhookNotFound = new NotFound({ detail: "Webhook endpoint not found", code: "webhook_not_found" })

/** Who is who, for operators (`api/PeopleApi.ts`); the users pages draw the same answers. */
export const PeopleHandlers = HttpApiBuilder.group(Api, "people", (handlers) =>
  Effect.gen(function* () {
    const core = {
      accounts: yield* Accounts,
      balances: yield* Balances,
      topups: yield* TopupService,
      orders: yield* OrderService,
      tickets: yield* TicketService,
      webhooks: yield* WebhookOversight
    }
    return (
      handlers
        .handle("usersList", ({ query }) =>
          usersList(core.accounts, core.balances, { ...listPaging(query.offset, query.limit), search: query.search })
        )
        .handle("usersBrief", ({ query }) => {
          const ids = (query.ids ?? "").split(",").flatMap((raw) => {
            const id = userIdOf(raw.trim())
            return id === undefined ? [] : [id]
          })
          return Effect.map(peopleOf(core.accounts, ids), (users) => ({ users }))
        })
        .handle("user", ({ params }) => {
          const userId = userIdOf(params.user_id)
          return userId === undefined ? Effect.fail(userNotFound) : userDetail(core, userId).pipe(mapErrors)
        })
        // The shopper's endpoint, removed by an operator; another user's endpoint is 404 as for its owner.
        .handle("deleteWebhook", ({ params }) => {
          const userId = userIdOf(params.user_id)
          const endpointId = pathId(params.webhook_id)
          if (userId === undefined || endpointId === undefined) return Effect.fail(webhookNotFound)
          return core.webhooks.remove(userId, endpointId).pipe(Effect.as({ id: endpointId, deleted: true }), mapErrors)
        })
    )
  })
)
