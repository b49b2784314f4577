import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './self-signed.js';

describe('the self-signed certificate', () => {
  it('is for 127.0.0.1 and localhost, signed by its own key', () => {
    const id = selfSignedCertificate('kdeck-sandbox-a');
    const cert = new X509Certificate(id.cert);
    expect(cert.subject).toBe('CN=kdeck-sandbox-a');
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost');
    expect(cert.checkPrivateKey(createPrivateKey(id.key))).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  it.each([
    ['leading zero bytes', '00000102030405060708090a0b0c0d0e', '0102030405060708090A0B0C0D0E'],
    ['a zero byte before a high bit', '00800102030405060708090a0b0c0d0e', '800102030405060708090A0B0C0D0E'],
    ['a high first bit', '800102030405060708090a0b0c0d0e0f', '800102030405060708090A0B0C0D0E0F'],
  ])('encodes serial numbers with %s minimally, as OpenSSL and Go require', (_what, hex, shown) => {
    const cert = new X509Certificate(selfSignedCertificate('t', Buffer.from(hex, 'hex')).cert);
    expect(cert.serialNumber).toBe(shown);
  });
});
