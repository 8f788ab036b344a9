/** The outside world (chain, marketplace, gift sender, notifier) for every root, from the one configuration. */
export { giftSenderLayer, type GiftSenderOptions, notifierLayer, type NotifierOptions } from "./Messaging.ts"
export { sharedSandboxWorld, worldSocketOf } from "./SharedSandbox.ts"
export { World } from "./World.ts"
export { ATTEMPT_TIMEOUT, OutboundHttp, RETRIES } from "./OutboundHttp.ts"
