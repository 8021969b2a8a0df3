// The in-page script of reads of the main content (only_main_content), in markdown or html.
import { documentToMarkdown } from '../../markdown/convert';
import { domBuilder } from '../dom-form';
import { mainContentOf, ourExtract, settledExtract } from '../../main-content/index';
import { pageScript } from '../page-script';
import { readerForm } from '../reader-form';

export const run = pageScript({ main: { readerForm, domBuilder, ourExtract, settledExtract, mainContentOf, documentToMarkdown } });
