// Countries Browser Rendering can launch a session in: the runtime twin of @cloudflare/puppeteer's
// `Locations` type (which exists only at compile time). The type checks below fail to compile if the
// two ever differ, e.g. after a puppeteer upgrade adds a location.
import type { WorkersLaunchOptions } from '@cloudflare/puppeteer';

export type BrowserLocation = NonNullable<WorkersLaunchOptions['location']>;

// biome-ignore format: a compact table reads better than one code per line.
export const BROWSER_LOCATIONS = [
  'AF', 'AL', 'DZ', 'AD', 'AO', 'AG', 'AR', 'AM', 'AU', 'AT', 'AZ', 'BH',
  'BD', 'BB', 'BY', 'BE', 'BZ', 'BJ', 'BM', 'BT', 'BO', 'BA', 'BW', 'BR',
  'BN', 'BG', 'BF', 'BI', 'KH', 'CM', 'CA', 'CV', 'KY', 'CF', 'TD', 'CL',
  'CN', 'CO', 'KM', 'CG', 'CR', 'CI', 'HR', 'CU', 'CY', 'CZ', 'CD', 'DK',
  'DJ', 'DM', 'DO', 'EC', 'EG', 'SV', 'GQ', 'ER', 'EE', 'SZ', 'ET', 'FJ',
  'FI', 'FR', 'GA', 'GE', 'DE', 'GH', 'GR', 'GL', 'GD', 'GT', 'GN', 'GW',
  'GY', 'HT', 'HN', 'HU', 'IS', 'IN', 'ID', 'IR', 'IQ', 'IE', 'IL', 'IT',
  'JM', 'JP', 'JO', 'KZ', 'KE', 'KI', 'KW', 'KG', 'LA', 'LV', 'LB', 'LS',
  'LR', 'LY', 'LI', 'LT', 'LU', 'MO', 'MG', 'MW', 'MY', 'MV', 'ML', 'MR',
  'MU', 'MX', 'FM', 'MD', 'MC', 'MN', 'MS', 'MA', 'MZ', 'MM', 'NA', 'NR',
  'NP', 'NL', 'NZ', 'NI', 'NE', 'NG', 'KP', 'MK', 'NO', 'OM', 'PK', 'PS',
  'PA', 'PG', 'PY', 'PE', 'PH', 'PL', 'PT', 'QA', 'RO', 'RU', 'RW', 'SH',
  'KN', 'LC', 'VC', 'WS', 'SM', 'ST', 'SA', 'SN', 'RS', 'SC', 'SL', 'SK',
  'SI', 'SB', 'SO', 'ZA', 'KR', 'SS', 'ES', 'LK', 'SD', 'SR', 'SE', 'CH',
  'SY', 'TW', 'TJ', 'TZ', 'TH', 'BS', 'GM', 'TL', 'TG', 'TO', 'TT', 'TN',
  'TR', 'TM', 'UG', 'UA', 'AE', 'GB', 'US', 'UY', 'UZ', 'VU', 'VE', 'VN',
  'YE', 'ZM', 'ZW',
] as const satisfies readonly BrowserLocation[];

type Missing = Exclude<BrowserLocation, (typeof BROWSER_LOCATIONS)[number]>;
// A compile error here names a location puppeteer accepts that the list above lacks.
const everyLocationListed: [Missing] extends [never] ? true : Missing = true;
void everyLocationListed;

const LOCATION_SET: ReadonlySet<string> = new Set(BROWSER_LOCATIONS);

/** The launch location for an ISO 3166-1 alpha-2 code in any case, or undefined when Browser Rendering has none. */
export function browserLocation(country: string): BrowserLocation | undefined {
  const code = country.toUpperCase();
  return LOCATION_SET.has(code) ? (code as BrowserLocation) : undefined;
}
