/** The outside world (chain, marketplace, gift sender, notifier) for every root, from the one configuration. */
export { giftSenderLayer, type GiftSenderOptions, notifierLayer, type NotifierOptions } from "./Messaging.ts"
// The sandbox world (emulator, simulators) is imported only in sandbox mode: `@resale/world/SharedSandbox.ts`.
export { World } from "./World.ts"
export { ATTEMPT_TIMEOUT, OutboundHttp, RETRIES } from "@resale/outbound"
