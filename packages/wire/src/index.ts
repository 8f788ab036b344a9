export * from "./Records.ts"
export { adminOrderOut, messageOut, orderOut, pricingOut, ticketOut, topupOut, userOut } from "./Wire.ts"
export { AdminStatus, statusOut } from "./Status.ts"
