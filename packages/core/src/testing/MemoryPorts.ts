import { Layer } from "effect"
import { CoreServices } from "../CoreServices.ts"
import { MemoryDb } from "./MemoryDb.ts"
import { MemoryIdempotencyKeys } from "./MemoryIdempotencyKeys.ts"
import { MemoryIncomingPayments } from "./MemoryIncomingPayments.ts"
import {
  MemoryAccountActivity,
  MemoryBotUpdates,
  MemoryInfoLookups,
  MemoryPricing,
  MemoryPushSubscriptions,
  MemoryReceipts,
  MemorySessions,
  MemoryTransactor
} from "./MemoryKeyValuePorts.ts"
import { MemoryLedger } from "./MemoryLedger.ts"
import { MemoryOrders } from "./MemoryOrders.ts"
import { MemoryOutbox } from "./MemoryOutbox.ts"
import { MemoryReportFigures } from "./MemoryReportFigures.ts"
import { MemoryTickets } from "./MemoryTickets.ts"
import { MemoryTopups } from "./MemoryTopups.ts"
import { MemoryUsers } from "./MemoryUsers.ts"

/** Every storage port over one shared `MemoryDb` (which it still requires). */
export const MemoryPortsNoDb = Layer.mergeAll(
  MemoryTransactor,
  MemoryUsers,
  MemoryLedger,
  MemoryTopups,
  MemoryIncomingPayments,
  MemoryOrders,
  MemoryTickets,
  MemoryPricing,
  MemoryIdempotencyKeys,
  MemorySessions,
  MemoryBotUpdates,
  MemoryPushSubscriptions,
  MemoryOutbox,
  MemoryInfoLookups,
  MemoryReceipts,
  MemoryAccountActivity,
  MemoryReportFigures
)

/** Every storage port in memory, plus the `MemoryDb` itself so tests can look at the state. */
export const MemoryPorts = MemoryPortsNoDb.pipe(Layer.provideMerge(MemoryDb.layer))

/**
 * The whole core in memory: every use-case service, every storage port and the `MemoryDb`.
 * A fresh database per build: provide it per test (`Effect.provide(layerMemory)`).
 */
export const layerMemory = CoreServices.pipe(Layer.provideMerge(MemoryPorts))
