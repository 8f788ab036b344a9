import { TIER_CONFIRM_PATH, TIER_UPGRADE_PATH } from "../pages/TierConfirmPage.ts"
import { CONFIRM_PATH } from "./NewKeyOnce.ts"

/**
 * Browser posts that must come from their confirmation page (`confirm=yes`): replacing the API key
 * (it stops the old one) and spending the balance where there is no purchase form with its total
 * (the lookup tier). Any other post of them is sent to the question instead, without script.
 * API clients are not browsers and never pass through here.
 */
export const askFirst = (path: string, fields: Readonly<Record<string, string>>): string | undefined => {
  if (fields["confirm"] === "yes") return undefined
  if (path === "/v2/api-key/rotate") return CONFIRM_PATH
  if (path === TIER_UPGRADE_PATH) {
    const tier = fields["tier"] ?? ""
    return /^\d{1,3}$/.test(tier) ? `${TIER_CONFIRM_PATH}?tier=${tier}` : `${TIER_CONFIRM_PATH}?tier=`
  }
  return undefined
}
