// The two halves of a public benchmark set, and each benchmark's own aggregate over any subset of its
// pages: a rule is tuned on one half and kept only if the other half does not lose.
import { createHash } from 'node:crypto';

export interface Scores {
  f1: number;
  precision: number;
  recall: number;
  accuracy: number;
}

export type Half = 'A' | 'B';

/** Half A: ids whose first hex digit is 0–7; half B: 8–f. */
export function halfOfId(id: string): Half {
  return Number.parseInt(id.charAt(0), 16) < 8 ? 'A' : 'B';
}

/** The snippets harness keys a page by the sha256 of its URL: the same split on that key. */
export function halfOfUrl(url: string): Half {
  return halfOfId(createHash('sha256').update(url).digest('hex'));
}

const mean = (values: number[]): number => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);

function precisionOf(tp: number, fp: number, fn: number): number {
  if (fp === 0 && fn === 0) return 1;
  return tp + fp === 0 ? 0 : tp / (tp + fp);
}

function recallOf(tp: number, fp: number, fn: number): number {
  if (fp === 0 && fn === 0) return 1;
  return tp + fn === 0 ? 0 : tp / (tp + fn);
}

/**
 * The scrapinghub metric (its evaluate.py, as the harness's metric.mjs): per page normalized shingle
 * counts; precision the mean over pages with a prediction, recall the mean over pages with a
 * reference text, F1 of the two means. Accuracy is not recomputed here (NaN).
 */
export function scrapinghubScores(pages: readonly { tp: number; fp: number; fn: number }[]): Scores {
  const precision = mean(pages.filter((p) => p.tp + p.fp > 0).map((p) => precisionOf(p.tp, p.fp, p.fn)));
  const recall = mean(pages.filter((p) => p.tp + p.fn > 0).map((p) => recallOf(p.tp, p.fp, p.fn)));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall, accuracy: Number.NaN };
}

/** The snippets metric (trafilatura's): counts summed over pages, then the usual ratios. */
export function snippetScores(pages: readonly { tp: number; fp: number; fn: number; tn: number }[]): Scores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const p of pages) {
    tp += p.tp;
    fp += p.fp;
    fn += p.fn;
    tn += p.tn;
  }
  const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
  return {
    f1: ratio(2 * tp, 2 * tp + fp + fn),
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    accuracy: ratio(tp + tn, tp + tn + fp + fn),
  };
}

/** The large benchmark's metric (WCXB's): word-level precision, recall and F1 per page, each the mean over pages. */
export function largeScores(pages: readonly { f1: number; precision: number; recall: number }[]): Scores {
  return {
    f1: mean(pages.map((p) => p.f1)),
    precision: mean(pages.map((p) => p.precision)),
    recall: mean(pages.map((p) => p.recall)),
    accuracy: Number.NaN,
  };
}
