export { FragmentMarketplace, makeFragmentMarketplace } from "./FragmentMarketplace.ts"
export { FragmentConfig, type FragmentOptions, missingCookies, REQUIRED_COOKIES } from "./FragmentConfig.ts"
export { encodeCommentPayload, parseCommentPayload, type CommentPayload } from "./FragmentPayload.ts"
