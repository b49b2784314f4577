import { describe, expect, it } from 'vitest';
import { readJsonFloat } from './json-number.js';

describe("readJsonFloat: serde_json's float reading without float_roundtrip", () => {
  it('reads what one multiplication or division by a power of ten gives, off by one unit at times', () => {
    // 12000000000000455 is not an f64: it rounds to ...456 before the division
    expect(readJsonFloat('0.12000000000000455')).toBe(0.12000000000000456);
    expect(readJsonFloat('-0.9999813562576685')).toBe(-0.9999813562576684);
    expect(readJsonFloat('1.436506529759401e-10')).toBe(1.4365065297594008e-10);
  });

  it('reads exactly what fits a u64 significand and a power of ten up to 1e22', () => {
    expect(readJsonFloat('100.0')).toBe(100);
    expect(readJsonFloat('1.5e-7')).toBe(1.5e-7);
    expect(readJsonFloat('-0.0')).toBe(-0);
    expect(readJsonFloat('1e16')).toBe(1e16);
  });

  it('drops fraction digits past a u64 and scales the exponent by integer digits past it', () => {
    expect(readJsonFloat('0.123456789012345678901234')).toBe(Number(12345678901234567890n) / 1e20);
    expect(readJsonFloat('184467440737095516150')).toBe(Number(18446744073709551615n) * 10);
  });

  it('is out of range (undefined) where serde_json reports it, and zero for a huge negative exponent', () => {
    expect(readJsonFloat('1e400')).toBeUndefined();
    expect(readJsonFloat('1e99999999999')).toBeUndefined();
    expect(readJsonFloat('1e-99999999999')).toBe(0);
    expect(readJsonFloat('0e99999999999')).toBe(0);
  });
});
