// The outcome of one fulfilment attempt is the core's (`OrderWork` and `OrderService` apply it).
export * from "@resale/core/orders/FulfilmentOutcome.ts"
