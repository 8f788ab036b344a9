import { Schema } from "effect"

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))

export const UserId = PositiveInt.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

export const TopupId = PositiveInt.pipe(Schema.brand("TopupId"))
export type TopupId = typeof TopupId.Type

export const OrderId = PositiveInt.pipe(Schema.brand("OrderId"))
export type OrderId = typeof OrderId.Type

export const TicketId = PositiveInt.pipe(Schema.brand("TicketId"))
export type TicketId = typeof TicketId.Type

export const PaymentId = PositiveInt.pipe(Schema.brand("PaymentId"))
export type PaymentId = typeof PaymentId.Type

export const MessageId = PositiveInt.pipe(Schema.brand("MessageId"))
export type MessageId = typeof MessageId.Type

export const LedgerEntryId = PositiveInt.pipe(Schema.brand("LedgerEntryId"))
export type LedgerEntryId = typeof LedgerEntryId.Type

export const OutboxEventId = PositiveInt.pipe(Schema.brand("OutboxEventId"))
export type OutboxEventId = typeof OutboxEventId.Type
