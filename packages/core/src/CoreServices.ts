import { Layer } from "effect"
import { Accounts } from "./accounts/Accounts.ts"
import { Idempotency } from "./idempotency/Idempotency.ts"
import { Balances } from "./ledger/Balances.ts"
import { OrderService } from "./orders/OrderService.ts"
import { OrderWork } from "./orders/OrderWork.ts"
import { Notifications } from "./outbox/Notifications.ts"
import { Payments } from "./payments/Payments.ts"
import { PricingService } from "./pricing/PricingService.ts"
import { Reports } from "./reports/Reports.ts"
import { SessionService } from "./sessions/SessionService.ts"
import { TicketService } from "./tickets/TicketService.ts"
import { TopupService } from "./topups/TopupService.ts"

/**
 * Every use-case service of the account surface, built on the storage ports. Provide the ports
 * (`@resale/store` in production, `MemoryPorts.layer` from `testing/` in tests).
 */
export const CoreServices = Layer.mergeAll(
  Accounts.layer,
  Balances.layer,
  TopupService.layer,
  Payments.layer,
  OrderService.layer,
  OrderWork.layer,
  TicketService.layer,
  PricingService.layer,
  Idempotency.layer,
  SessionService.layer,
  Notifications.layer,
  Reports.layer
)
