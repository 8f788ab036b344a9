import { Schema } from "effect"
import { OrderId } from "../ids.ts"
import { OrderStatus } from "./Order.ts"

/** No such order, or one owned by someone else (same answer on purpose). */
export class OrderNotFound extends Schema.TaggedError<OrderNotFound>()("OrderNotFound", {
  orderId: OrderId
}) {}

/** The order is in `from`, from which `to` is not allowed. */
export class OrderTransitionInvalid extends Schema.TaggedError<OrderTransitionInvalid>()("OrderTransitionInvalid", {
  orderId: OrderId,
  from: OrderStatus,
  to: OrderStatus
}) {}

/** An order request that breaks a rule (amount range, duration, username, gift, comment). */
export class OrderRequestInvalid extends Schema.TaggedError<OrderRequestInvalid>()("OrderRequestInvalid", {
  reason: Schema.Literals([
    "StarsAmountTooSmall",
    "StarsAmountTooLarge",
    "PremiumDuration",
    "Username",
    "Gift",
    "Comment",
    "SenderAccount"
  ]),
  message: Schema.String
}) {}
