// The in-page script of html reads: the DOM as it stands, and the metadata.
import { pageScript } from '../page-script';

export const run = pageScript({});
