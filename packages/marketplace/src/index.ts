export { FragmentMarketplace, makeFragmentMarketplace } from "./FragmentMarketplace.ts"
export { type FragmentOptions, missingCookies, REQUIRED_COOKIES } from "./FragmentConfig.ts"
export { encodeCommentPayload, parseCommentPayload, type CommentPayload } from "./FragmentPayload.ts"
export {
  FragmentSimulator,
  type FragmentSimulatorHandle,
  type FragmentSimulatorOptions,
  SANDBOX_FRAGMENT_WALLET
} from "./simulator/FragmentSimulator.ts"
export type { SimulatorControl } from "./simulator/SimulatorControl.ts"
export type { PaymentSeen } from "./simulator/SimulatorApi.ts"
export { FragmentSandbox } from "./simulator/FragmentSandbox.ts"
