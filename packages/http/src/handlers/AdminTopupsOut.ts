import type { Topup } from "@resale/core"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Option } from "effect"
import type * as Dto from "../api/Dtos.ts"
import { topupOut } from "./Wire.ts"

/**
 * Top-ups as operators list them: each receipt awaiting review names the credited top-up of the
 * same user and amount it most likely repeats, so the operator sees it before approving.
 */
export const adminTopupsOut = (service: TopupService["Service"], items: ReadonlyArray<Topup>) =>
  Effect.map(
    service.possibleDuplicates(items),
    (duplicates): Array<typeof Dto.AdminTopup.Type> =>
      items.map((t, i) => ({
        ...topupOut(t),
        possible_duplicate_of: Option.match(duplicates[i]!, { onNone: () => null, onSome: (d) => d.id })
      }))
  )
