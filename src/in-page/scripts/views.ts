// The in-page script of reads that gather the page's links and images (include_links,
// include_images): the main content is found for their regions, on a DOM, and the frames they read
// are reader forms of light nodes; the other kinds of read never carry this code.
import { documentToMarkdown } from '../../markdown/convert';
import { domBuilder } from '../dom-form';
import { detachTree, lightBuilder } from '../light-tree';
import { mainContentOf, ourExtract, settledExtract } from '../../main-content/index';
import { gatherViews, markMainContent, markMainRegions, withImageSizes } from '../page-views';
import { pageScript } from '../page-script';
import { readerForm } from '../reader-form';

export const run = pageScript({
  light: { readerForm, lightBuilder, detachTree, documentToMarkdown },
  main: { readerForm, domBuilder, ourExtract, settledExtract, mainContentOf, documentToMarkdown },
  views: { gatherViews, markMainContent, markMainRegions, withImageSizes },
});
