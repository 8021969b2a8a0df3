// The in-page script of whole-page markdown reads and of cross-origin frames' reader forms.
import { documentToMarkdown } from '../../markdown/convert';
import { detachTree, lightBuilder } from '../light-tree';
import { pageScript } from '../page-script';
import { readerForm } from '../reader-form';

export const run = pageScript({ light: { readerForm, lightBuilder, detachTree, documentToMarkdown } });
