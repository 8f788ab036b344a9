export { ATTEMPT_TIMEOUT, OutboundHttp, outboundHttp, RETRIES, undiciHttp } from "./OutboundHttp.ts"
export { type Answer, DEFAULT_POLICY, isRetryable, retrying, type RetryPolicy, withRetryPolicy } from "./RetryPolicy.ts"
export { wholePathRedacted, withRedactedPathSpans } from "./RedactedSpans.ts"
