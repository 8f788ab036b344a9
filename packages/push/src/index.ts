/** Web push adapter: RFC 8291/8292 delivery (the Notifier's push channel) and the VAPID key pair. */
export { makeWebPushSender, type WebPushOptions } from "./WebPushSender.ts"
export { resolveVapidKeys, type VapidKeys } from "./VapidKeys.ts"
