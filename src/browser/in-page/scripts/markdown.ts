// The in-page script of markdown reads and of cross-origin frames' reader forms.
import { documentToMarkdown } from '../../../markdown/convert';
import { pageScript } from '../page-script';
import { readerForm } from '../reader-form';

export const run = pageScript({ reader: { readerForm, documentToMarkdown } });
