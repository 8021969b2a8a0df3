import { describe, expect, it } from 'vitest';
import { languageTags, mobileUserAgent } from '../../../../src/browser/page/visit-setup.js';

describe('languageTags', () => {
  it('keeps the tags of an Accept-Language value without their weights, for navigator.languages', () => {
    expect(languageTags('de-CH,de;q=0.8, en ;q=0.5')).toBe('de-CH,de,en');
    expect(languageTags('fr')).toBe('fr');
    expect(languageTags('*;q=0.1, ,ja')).toBe('ja');
  });
});

describe('mobileUserAgent', () => {
  it("is a phone's Chrome of the browser's major version, in the reduced form, with mobile client hints", () => {
    const { userAgent, metadata } = mobileUserAgent('HeadlessChrome/156.0.8078.108');
    expect(userAgent).toBe(
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
    );
    expect(metadata.mobile).toBe(true);
    expect(metadata.platform).toBe('Android');
    expect(metadata.brands).toContainEqual({ brand: 'Chromium', version: '156' });
  });
});
