import { describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import type { StoreTest } from "./contract/support.ts"
import { ordersContract, ticketsContract } from "./contract/ordersTickets.ts"
import { directPurchasesContract } from "./contract/directPurchases.ts"
import { smallPortsContract, transactorContract } from "./contract/smallPorts.ts"
import { paymentsContract, topupsContract } from "./contract/topupsPayments.ts"
import { ledgerContract, usersContract } from "./contract/usersLedger.ts"

// The store contract on real PostgreSQL: every test gets its own database, copied from the run's template.
const test: StoreTest = (name, body) => it.effect(name, () => body.pipe(Effect.provide(IsolatedPostgres.layerStore)))

describe("store on PostgreSQL", () => {
  usersContract(test)
  ledgerContract(test)
  topupsContract(test)
  paymentsContract(test)
  ordersContract(test)
  ticketsContract(test)
  transactorContract(test)
  smallPortsContract(test)
  directPurchasesContract(test)
})
