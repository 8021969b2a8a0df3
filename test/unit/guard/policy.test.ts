import { describe, expect, it } from 'vitest';
import { targetGuard } from '../../../src/guard/policy.js';

describe('documentAddressSpaceRefusal', () => {
  const on = targetGuard({ allowPrivateNetwork: false });

  it('takes a document the browser classed public', () => {
    expect(on.documentAddressSpaceRefusal('Public')).toBeUndefined();
  });

  it.each([
    ['Private', 'an address in the private space'],
    ['Local', 'an address in the local space'],
    ['Loopback', 'an address in the loopback space'],
    ['Unknown', 'an address in the unknown space'],
  ])('refuses a document from the %s address space', (space, reason) => {
    expect(on.documentAddressSpaceRefusal(space)).toBe(reason);
  });

  it('refuses a document whose address space the browser did not report', () => {
    expect(on.documentAddressSpaceRefusal(undefined)).toBe('an address the browser did not report');
  });

  it('lets any address through with private targets allowed, and through an upstream proxy', () => {
    expect(targetGuard({ allowPrivateNetwork: true }).documentAddressSpaceRefusal('Private')).toBeUndefined();
    expect(targetGuard({ allowPrivateNetwork: false }, true).documentAddressSpaceRefusal(undefined)).toBeUndefined();
  });
});

describe('checksResponseAddresses', () => {
  it('judges the address of every response only with the guard on and no proxy resolving names for the browser', () => {
    expect(targetGuard({ allowPrivateNetwork: false }).checksResponseAddresses).toBe(true);
    expect(targetGuard({ allowPrivateNetwork: false }, true).checksResponseAddresses).toBe(false);
    expect(targetGuard({ allowPrivateNetwork: true }).checksResponseAddresses).toBe(false);
  });
});
