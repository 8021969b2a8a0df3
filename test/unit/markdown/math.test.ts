// MathML in markdown (src/markdown/math-rules.ts, docs/api.md "What the rendered page contains").
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { documentToMarkdown } from '../../../src/markdown/convert.js';
import type { DomElement } from '../../../src/markdown/dom.js';
import { isTexAnnotation } from '../../../src/markdown/math-rules.js';

const md = (body: string) => documentToMarkdown(parseHTML(`<html><body>${body}</body></html>`).document as never, undefined);

const FORMULA =
  '<semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">E = mc^{2}</annotation></semantics>';

describe('MathML', () => {
  it('writes an inline formula with a TeX annotation once, as $…$', () => {
    expect(md(`<p>Energy <math>${FORMULA}</math> holds.</p>`)).toBe('Energy $E = mc^{2}$ holds.\n');
  });

  it('writes display math on a line of its own, as $$…$$', () => {
    expect(md(`<p>Before</p><math display="block">${FORMULA}</math><p>After</p>`)).toBe('Before\n\n$$E = mc^{2}$$\n\nAfter\n');
  });

  it('writes a formula without TeX as its text, annotations of other encodings left out', () => {
    expect(md('<p>Plain <math><mi>x</mi><mo>+</mo><mn>1</mn></math> text.</p>')).toBe('Plain x+1 text.\n');
    expect(md('<p><math><semantics><mi>y</mi><annotation encoding="text/plain">why</annotation></semantics></math></p>')).toBe('y\n');
  });

  it('keeps TeX on one line, its white space collapsed', () => {
    expect(
      md('<p><math><semantics><mi>a</mi><annotation encoding="application/x-tex">a\n  +\n  b</annotation></semantics></math></p>'),
    ).toBe('$a + b$\n');
  });
});

describe('isTexAnnotation (what the reader form keeps although nothing renders it)', () => {
  const first = (markup: string) =>
    parseHTML(`<html><body><math><semantics><mi>x</mi>${markup}</semantics></math></body></html>`).document.querySelector(
      'semantics > :last-child',
    ) as unknown as DomElement;

  it('is an annotation whose encoding is TeX, in any case and with white space around it', () => {
    expect(isTexAnnotation(first('<annotation encoding="application/x-tex">x</annotation>'))).toBe(true);
    expect(isTexAnnotation(first('<annotation encoding=" Application/X-TeX ">x</annotation>'))).toBe(true);
  });

  it('is no annotation of another encoding, no annotation-xml, and no annotation without an encoding', () => {
    expect(isTexAnnotation(first('<annotation encoding="text/plain">x</annotation>'))).toBe(false);
    expect(isTexAnnotation(first('<annotation encoding="TeX">x</annotation>'))).toBe(false);
    expect(isTexAnnotation(first('<annotation-xml encoding="application/x-tex"><mi>x</mi></annotation-xml>'))).toBe(false);
    expect(isTexAnnotation(first('<annotation>x</annotation>'))).toBe(false);
    expect(isTexAnnotation(first('<mtext encoding="application/x-tex">x</mtext>'))).toBe(false);
  });
});
