import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { EmbeddedPostgres } from "../src/EmbeddedPostgres.ts"
import { Migrations } from "../src/Migrations.ts"
import { PgStore } from "../src/PgStore.ts"
import { reset, type StoreTest } from "./contract/support.ts"
import { ordersContract, ticketsContract } from "./contract/ordersTickets.ts"
import { directPurchasesContract } from "./contract/directPurchases.ts"
import { smallPortsContract, transactorContract } from "./contract/smallPorts.ts"
import { paymentsContract, topupsContract } from "./contract/topupsPayments.ts"
import { ledgerContract, usersContract } from "./contract/usersLedger.ts"

// The same contract on the embedded PGlite the no-configuration start uses (in memory here): one
// instance for the file, its tables emptied before each test.
const Embedded = PgStore.layer.pipe(
  Layer.provideMerge(Migrations.layer.pipe(Layer.provideMerge(EmbeddedPostgres.layer(undefined))))
)

layer(Embedded, { timeout: "60 seconds" })("store on embedded PGlite", (it) => {
  const test: StoreTest = (name, body) => it.effect(name, () => Effect.andThen(reset, body))
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
