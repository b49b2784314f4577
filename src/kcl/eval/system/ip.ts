/**
 * IP addresses and CIDR blocks as kcl's net module sees them through Rust's std::net and the cidr
 * crate: strict parsing (no leading zeros in IPv4 parts, no zone ids), RFC 5952 text for IPv6,
 * and the address classes of Ipv4Addr/Ipv6Addr.
 */

export interface Ip {
  readonly v6: boolean;
  /** The address as an unsigned integer of 32 or 128 bits. */
  readonly bits: bigint;
}

export interface Cidr {
  /** The first address of the block. */
  readonly ip: Ip;
  readonly prefix: number;
}

export const width = (ip: Ip): number => (ip.v6 ? 128 : 32);

/** Rust's Ipv4Addr::from_str: four decimal parts of at most three digits, "0" the only one with a leading 0. */
export function parseIpv4(s: string): Ip | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let bits = 0n;
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    bits = (bits << 8n) | BigInt(part);
  }
  return { v6: false, bits };
}

/** Groups of a `:`-separated run (each 1-4 hex digits, an IPv4 allowed last); undefined if malformed. */
function groups(s: string, allowIpv4: boolean): bigint[] | undefined {
  if (s === '') return [];
  const parts = s.split(':');
  const out: bigint[] = [];
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && allowIpv4 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (!v4) return undefined;
      out.push(v4.bits >> 16n, v4.bits & 0xffffn);
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(part)) {
      out.push(BigInt(parseInt(part, 16)));
    } else return undefined;
  }
  return out;
}

/** Rust's Ipv6Addr::from_str: eight groups, or fewer around one `::` standing for at least one. */
export function parseIpv6(s: string): Ip | undefined {
  const halves = s.split('::');
  let all: bigint[];
  if (halves.length === 1) {
    const g = groups(s, true);
    if (!g || g.length !== 8) return undefined;
    all = g;
  } else if (halves.length === 2) {
    const head = groups(halves[0], false);
    const tail = groups(halves[1], true);
    if (!head || !tail || head.length + tail.length > 7) return undefined;
    all = [...head, ...Array<bigint>(8 - head.length - tail.length).fill(0n), ...tail];
  } else return undefined;
  return { v6: true, bits: all.reduce((acc, g) => (acc << 16n) | g, 0n) };
}

export function parseIp(s: string): Ip | undefined {
  return parseIpv4(s) ?? parseIpv6(s);
}

function segments(ip: Ip): number[] {
  return Array.from({ length: 8 }, (_, i) => Number((ip.bits >> BigInt(112 - 16 * i)) & 0xffffn));
}

export function octets(ip: Ip): number[] {
  return Array.from({ length: 4 }, (_, i) => Number((ip.bits >> BigInt(24 - 8 * i)) & 0xffn));
}

/** An IPv4-mapped address (::ffff:a.b.c.d) as IPv4. */
function mappedIpv4(ip: Ip): Ip | undefined {
  return ip.v6 && ip.bits >> 32n === 0xffffn ? { v6: false, bits: ip.bits & 0xffffffffn } : undefined;
}

/** Rust's Ipv6Addr::to_ipv4: mapped and compatible (::a.b.c.d, ::1 included) addresses. */
export function toIpv4(ip: Ip): Ip | undefined {
  if (!ip.v6) return ip;
  const top = ip.bits >> 32n;
  return top === 0n || top === 0xffffn ? { v6: false, bits: ip.bits & 0xffffffffn } : undefined;
}

export function toIpv6(ip: Ip): Ip {
  return ip.v6 ? ip : { v6: true, bits: (0xffffn << 32n) | ip.bits };
}

/** Rust's Display: dotted IPv4; IPv6 in lowercase with the first longest run of 2+ zero groups as `::`. */
export function ipText(ip: Ip): string {
  if (!ip.v6) return octets(ip).join('.');
  const mapped = mappedIpv4(ip);
  if (mapped) return `::ffff:${ipText(mapped)}`;
  const segs = segments(ip);
  let best = { start: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (segs[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && segs[j] === 0) j++;
    if (j - i > best.len) best = { start: i, len: j - i };
    i = j;
  }
  const hex = (xs: number[]): string => xs.map((x) => x.toString(16)).join(':');
  if (best.len < 2) return hex(segs);
  return `${hex(segs.slice(0, best.start))}::${hex(segs.slice(best.start + best.len))}`;
}

// ---------------------------------------------------------------- classes

export function isLoopback(ip: Ip): boolean {
  return ip.v6 ? ip.bits === 1n : octets(ip)[0] === 127;
}

export function isUnspecified(ip: Ip): boolean {
  return ip.bits === 0n;
}

export function isMulticast(ip: Ip): boolean {
  return ip.v6 ? ip.bits >> 120n === 0xffn : octets(ip)[0] >> 4 === 0xe;
}

/** Multicast with the given scope nibble (ffx1::/16 interface-local, ffx2::/16 link-local). */
export function isIpv6MulticastScope(ip: Ip, scope: number): boolean {
  return ip.v6 && isMulticast(ip) && (segments(ip)[0] & 0xff0f) === (0xff00 | scope);
}

export function isIpv4LinkLocal(ip: Ip): boolean {
  const [a, b] = octets(ip);
  return a === 169 && b === 254;
}

export function isIpv6UnicastLinkLocal(ip: Ip): boolean {
  return (segments(ip)[0] & 0xffc0) === 0xfe80;
}

/** Rust's (unstable) Ipv4Addr::is_global, which kcl spells out: no private, local or reserved ranges. */
export function isIpv4Global(ip: Ip): boolean {
  const [a, b, c] = octets(ip);
  if (ip.bits === 0xc0000009n || ip.bits === 0xc000000an) return true;
  const isPrivate = a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  const isBroadcast = ip.bits === 0xffffffffn;
  const isDocumentation =
    (a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113);
  const isShared = a === 100 && (b & 0xc0) === 0x40;
  const isProtocolAssignment = a === 192 && b === 0 && c === 0;
  const isReserved = (a & 0xf0) === 0xf0 && !isBroadcast;
  const isBenchmarking = a === 198 && (b & 0xfe) === 18;
  return !(
    isPrivate ||
    a === 127 ||
    isIpv4LinkLocal(ip) ||
    isBroadcast ||
    isDocumentation ||
    isShared ||
    isProtocolAssignment ||
    isReserved ||
    isBenchmarking ||
    a === 0
  );
}

/** kcl's IPv6 global unicast: 2000::/3 less documentation and benchmarking, or NAT64 of a global IPv4. */
export function isIpv6GlobalUnicast(ip: Ip): boolean {
  const s = segments(ip);
  if ((s[0] & 0xe000) === 0x2000) {
    if (s[0] === 0x2001 && s[1] === 0xdb8) return false;
    return !(s[0] === 0x2001 && s[1] === 2 && s[2] === 0);
  }
  if (s[0] === 0x64 && s[1] === 0xff9b && s.slice(2, 6).every((x) => x === 0)) {
    const v4: Ip = { v6: false, bits: ip.bits & 0xffffffffn };
    return isIpv4Global(v4) && !isMulticast(v4);
  }
  return false;
}

// ---------------------------------------------------------------- CIDR

/** The cidr crate's IpCidr::from_str: `addr/len` with no host bits set, or a bare address. */
export function parseCidr(s: string): Cidr | string {
  const slash = s.indexOf('/');
  const ip = parseIp(slash < 0 ? s : s.slice(0, slash));
  if (!ip) return 'invalid IP address syntax';
  const bitsText = slash < 0 ? String(width(ip)) : s.slice(slash + 1);
  if (!/^\d+$/.test(bitsText)) return 'invalid digit found in string';
  const prefix = Number(bitsText);
  if (prefix > width(ip)) return 'invalid length for network';
  const hostMask = (1n << BigInt(width(ip) - prefix)) - 1n;
  if ((ip.bits & hostMask) !== 0n) return 'host part of address was not zero';
  return { ip, prefix };
}

export function cidrContains(cidr: Cidr, ip: Ip): boolean {
  if (cidr.ip.v6 !== ip.v6) return false;
  const shift = BigInt(width(ip) - cidr.prefix);
  return ip.bits >> shift === cidr.ip.bits >> shift;
}
