import { Layer } from "effect"

/** Every storage port over one `SqlClient`. */
const layer = Layer.empty

export const PgStore = { layer } as const
