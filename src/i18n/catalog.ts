// The shape every catalog has: the English catalog's keys, each a template or plural forms. A
// catalog typed `Catalog` with a missing or an extra key does not compile (an object literal's
// excess property check); test/unit/i18n/catalogs.test.ts checks the same at run time, and that
// every translation uses the placeholders its English template uses.
import type { en } from "./en.ts";

/** Plural forms by Intl.PluralRules category; "other" is the fallback of every category. */
export type Plural = { readonly other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

type English = typeof en;

/** The keys whose value is one template. */
export type MessageKey = { [K in keyof English]: English[K] extends string ? K : never }[keyof English];
/** The keys whose value has plural forms (a count `n` selects one). */
export type PluralKey = Exclude<keyof English, MessageKey>;
export type Key = keyof English;

export type Catalog = { readonly [K in MessageKey]: string } & { readonly [K in PluralKey]: Plural };

/** Parameters of a template: a number is formatted for the locale (Intl.NumberFormat). */
export type Params = Readonly<Record<string, string | number>>;
