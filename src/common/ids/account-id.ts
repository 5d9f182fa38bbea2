/**
 * The id of the account a request acts for. Branded so that repository methods, which take it as
 * a required argument, can only be given an id that came from authentication, not any string.
 */
export type AccountId = string & { readonly __brand: 'AccountId' };

export const asAccountId = (id: string) => id as AccountId;
