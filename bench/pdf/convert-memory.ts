// Run by bench/pdf/run.ts in a process of its own: prints the process's peak resident memory, in KiB,
// after converting the PDF named on the command line with src/pdf, or after only loading the modules
// (`--baseline`). The difference of the two is what converting that PDF took at its peak.
import { readFileSync } from 'node:fs';
import '../../test/unit/support/node22-stand-ins.js';

const { convertPdf } = await import('../../src/pdf/index.js');
const path = process.argv[2];
if (path !== undefined && path !== '--baseline') await convertPdf(new Uint8Array(readFileSync(path)), { maxPages: 300 });
console.log(process.resourceUsage().maxRSS);
