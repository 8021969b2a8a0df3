// What happens to cookie-consent dialogs (docs/api.md "Consent dialogs"): vocabulary shared by the API
// schema, which accepts it, and the browser side, which acts on it.
export const CONSENT_CHOICES = ['reject', 'keep'] as const;
export type ConsentChoice = (typeof CONSENT_CHOICES)[number];
