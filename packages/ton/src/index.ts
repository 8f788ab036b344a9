/**
 * TON adapters of the Blockchain port (`@resale/core/ports/Blockchain.ts`).
 * - `SandboxBlockchain.layerWith(options)`: in-process TON VM, faucet, state under `options.dataDir`.
 * - `TonCenterBlockchain.layerWith(options)`: toncenter v2 through TonClient.
 * - `serveSandboxToncenter(sandbox)`: the sandbox emulator as a toncenter endpoint for other processes.
 */
export { type ChainClient, type RawAccount, rejectionText } from "./ChainClient.ts"
export { deriveKeys, type DerivedKey, phraseWords } from "./Mnemonic.ts"
export { networkGlobalIdOf, payerAccount, TonPayerAccounts } from "./PayerAccount.ts"
export { SandboxBlockchain, type SandboxOptions } from "./SandboxBlockchain.ts"
export { SandboxFaucet } from "./SandboxFaucet.ts"
export { paymentSeenOn } from "./SandboxPayments.ts"
export {
  type Interception,
  type SandboxChain,
  type SandboxToncenterOptions,
  serveSandboxToncenter
} from "./SandboxToncenter.ts"
export { makeTonBlockchain, type TonBlockchainOptions } from "./TonBlockchain.ts"
export {
  makeTonCenterBlockchain,
  TonCenterBlockchain,
  type TonCenterOptions,
  toBlockchainError
} from "./TonCenterBlockchain.ts"
export { messageBody, normalizedHash, normalizedHashOfBoc, parseRecipient, senderFee, verdict } from "./Transfers.ts"
export { expectedCodeHash, type NetworkGlobalId, signedExternal, walletContract } from "./WalletContracts.ts"
