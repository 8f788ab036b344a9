import type { Topup } from "@resale/core"
import type { DuplicateReason } from "@resale/core/topups/DuplicateReceipt.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Option } from "effect"
import type * as Dto from "@resale/wire/Dtos.ts"
import { topupOut } from "./Wire.ts"

const REASONS: Record<DuplicateReason, "same_file" | "same_amount" | "near_amount"> = {
  SameFile: "same_file",
  SameAmount: "same_amount",
  NearAmount: "near_amount"
}

/**
 * Top-ups as operators list them: each receipt awaiting review names the credited top-up of the
 * same file, or of the same user and (nearly) the same amount, it most likely repeats, so the operator sees it before approving.
 */
export const adminTopupsOut = (service: TopupService["Service"], items: ReadonlyArray<Topup>) =>
  Effect.map(
    service.possibleDuplicates(items),
    (duplicates): Array<typeof Dto.AdminTopup.Type> =>
      items.map((t, i) => ({
        ...topupOut(t),
        possible_duplicate_of: Option.match(duplicates[i]!, { onNone: () => null, onSome: (d) => d.of.id }),
        possible_duplicate_reason: Option.match(duplicates[i]!, {
          onNone: () => null,
          onSome: (d) => REASONS[d.reason]
        })
      }))
  )
