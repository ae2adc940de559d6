/** Contract 2.1: Background Removal costs 150 tokens per image, debited at acceptance. */
export const BG_REMOVE_COST = 150;

/** The ledger's `operation` for these debits and their refunds. */
export const BG_REMOVE_OPERATION = "bg_remove";
