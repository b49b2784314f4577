/**
 * The `net` system module (kcl's crates/runtime/src/net), over the address model in ip.ts.
 *
 * Two differences from kcl, both from kdeck's rules or for safety:
 * - `fqdn` does no DNS lookup (evaluation touches no network): it gives the name it was given, or
 *   the host name, which is what kcl falls back to when the lookup fails.
 * - `to_IP4` and `to_IP6` raise an error for input that is not an address, where kcl returns the
 *   error message as if it were the result.
 */
import * as os from 'node:os';
import { expectInt, expectList, expectStr, optionalArg, requiredArg, type Impl, type Signature } from '../args.js';
import { DictValue, isInt, isStr, toStr, typeName, type CallArgs, type ModuleValue, type Value } from '../values.js';
import { evalError, makeModule, sig } from './common.js';
import {
  cidrContains,
  ipText,
  isIpv4Global,
  isIpv4LinkLocal,
  isIpv6GlobalUnicast,
  isIpv6MulticastScope,
  isIpv6UnicastLinkLocal,
  isLoopback,
  isMulticast,
  isUnspecified,
  octets,
  parseCidr,
  parseIp,
  parseIpv4,
  parseIpv6,
  toIpv4,
  toIpv6,
  width,
  type Cidr,
  type Ip,
} from './ip.js';

function ipArg(call: CallArgs, fn: string): string {
  return expectStr(requiredArg(call, 0, 'ip'), fn, 'ip');
}

function splitHostPort(call: CallArgs): Value {
  const s = expectStr(requiredArg(call, 0, 'ip_end_point'), 'split_host_port', 'ip_end_point');
  const fail = (why: string): never => evalError(`ip_end_point "${s}" ${why}`);
  const colon = s.lastIndexOf(':');
  if (colon < 0) return fail('missing port');
  const host = s.slice(0, colon);
  const port = s.slice(colon + 1);
  if (host.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0) return fail("missing ']'");
    if (end > host.length || s[end + 1] !== ':') return fail('missing port');
    if (end < host.length - 1) return fail('too many colons');
    if (s.slice(1).includes('[')) return fail("unexpected '['");
    if (port.includes(']')) return fail("unexpected ']'");
    return [host.slice(1, end), port];
  }
  if (host.includes(':')) return fail('too many colons');
  if (s.slice(1).includes('[')) return fail("unexpected '['");
  if (s.includes(']')) return fail("unexpected ']'");
  return [host, port];
}

function joinHostPort(call: CallArgs): Value {
  const host = expectStr(requiredArg(call, 0, 'host'), 'join_host_port', 'host');
  const port = requiredArg(call, 1, 'port');
  if (!isInt(port) && !isStr(port)) {
    evalError(`join_host_port() argument 'port' must be int or str, not '${typeName(port)}'`);
  }
  return host.includes(':') ? `[${host}]:${toStr(port)}` : `${host}:${toStr(port)}`;
}

function fqdn(call: CallArgs): Value {
  const name = optionalArg(call, 0, 'name');
  const given = name === undefined ? '' : expectStr(name, 'fqdn', 'name');
  return given === '' ? os.hostname() : given;
}

/** The canonical text of an address, or '' when it is none. */
function ipString(fn: string): Impl {
  return (call) => {
    const ip = parseIp(ipArg(call, fn));
    return ip ? ipText(ip) : '';
  };
}

function toIP4(call: CallArgs): Value {
  const text = ipArg(call, 'to_IP4');
  const ip = parseIp(text);
  if (!ip) return evalError(`to_IP4() can not parse '${text}' as an IPv4 or IPv6 address`);
  const v4 = toIpv4(ip);
  return v4 ? ipText(v4) : evalError(`to_IP4() can not convert the IPv6 address '${text}' to IPv4`);
}

function toIP6(fn: string): Impl {
  return (call) => {
    const text = ipArg(call, fn);
    const ip = parseIp(text);
    return ip ? ipText(toIpv6(ip)) : evalError(`${fn}() can not parse '${text}' as an IPv6 or IPv4 address`);
  };
}

/** A predicate over parsed addresses; text that is no address is false. */
function ipTest(fn: string, test: (ip: Ip) => boolean): Impl {
  return (call) => {
    const ip = parseIp(ipArg(call, fn));
    return ip !== undefined && test(ip);
  };
}

function cidrArg(call: CallArgs, index: number, fn: string): Cidr {
  const text = expectStr(requiredArg(call, index, 'cidr'), fn, 'cidr');
  const cidr = parseCidr(text);
  return typeof cidr === 'string' ? evalError(`${fn}() invalid cidr: ${cidr}`) : cidr;
}

function parseCIDR(call: CallArgs): Value {
  const cidr = parseCidr(expectStr(requiredArg(call, 0, 'cidr'), 'parse_CIDR', 'cidr'));
  if (typeof cidr === 'string') return new DictValue();
  return new DictValue([
    ['ip', ipText(cidr.ip)],
    ['mask', BigInt(cidr.prefix)],
  ]);
}

function isIPInCIDR(call: CallArgs): Value {
  const text = ipArg(call, 'is_IP_in_CIDR');
  const ip = parseIp(text) ?? evalError('is_IP_in_CIDR() invalid ip: invalid IP address syntax');
  const cidr = cidrArg(call, 1, 'is_IP_in_CIDR');
  // an IPv6 block may hold an IPv4 address in its mapped form
  return cidrContains(cidr, cidr.ip.v6 ? toIpv6(ip) : ip);
}

/** The `netNum`-th block of `additional` more prefix bits inside `cidr`, as "addr/len". */
function allocate(cidr: Cidr, additional: bigint, netNum: bigint, fn: string): string {
  const w = width(cidr.ip);
  const len = BigInt(cidr.prefix) + additional;
  if (len > BigInt(w)) {
    evalError(
      `${fn} invalid additional_bits: would extend network length to ${len} bits, which is too long for IPv${cidr.ip.v6 ? 6 : 4}`,
    );
  }
  if (netNum >= 1n << additional) {
    evalError(`${fn} additional_bits of ${additional} does not accommodate a net_num of ${netNum}`);
  }
  const bits = cidr.ip.bits + (netNum << (BigInt(w) - len));
  return `${ipText({ v6: cidr.ip.v6, bits })}/${len}`;
}

function nonNegative(v: Value, fn: string, name: string): bigint {
  const n = expectInt(v, fn, name);
  if (n < 0n) evalError(`${fn}() invalid ${name}: cannot be negative`);
  return n;
}

function cidrSubnet(call: CallArgs): Value {
  const cidr = cidrArg(call, 0, 'CIDR_subnet');
  const additional = nonNegative(requiredArg(call, 1, 'additional_bits'), 'CIDR_subnet', 'additional_bits');
  const netNum = nonNegative(requiredArg(call, 2, 'net_num'), 'CIDR_subnet', 'net_num');
  return allocate(cidr, additional, netNum, 'CIDR_subnet()');
}

/**
 * Consecutive blocks of the given sizes: each takes the lowest number at its size that does not
 * start where an earlier block (scaled to that size) starts, as kcl allocates them.
 */
function cidrSubnets(call: CallArgs): Value {
  const fn = 'CIDR_subnets';
  const cidr = cidrArg(call, 0, fn);
  const sizes = expectList(requiredArg(call, 1, 'additional_bits'), fn, 'additional_bits').map((v) =>
    nonNegative(v, fn, 'additional_bits'),
  );
  const w = BigInt(width(cidr.ip));
  const nums: bigint[] = [];
  for (const bits of sizes) {
    const len = BigInt(cidr.prefix) + bits;
    if (cidr.ip.v6 && bits > 63n) evalError(`${fn}() invalid additional_bits: cannot extend more than 63 bits`);
    if (len > w) {
      evalError(
        `${fn}() invalid additional_bits: would extend network length to ${len} bits, which is too long for IPv${cidr.ip.v6 ? 6 : 4}`,
      );
    }
    let num = 0n;
    for (let clash = true; clash;) {
      clash = false;
      nums.forEach((taken, i) => {
        const takenBits = sizes[i] > bits ? bits : sizes[i];
        const scaled = sizes[i] > bits ? taken >> (sizes[i] - bits) : taken << (bits - sizes[i]);
        if (scaled === num) {
          num += 1n << (bits - takenBits);
          clash = true;
        }
      });
    }
    nums.push(num);
  }
  const out: Value[] = [];
  sizes.forEach((bits, i) => {
    if (nums[i] >= 1n << bits) {
      evalError(
        `${fn}() not enough remaining address space for a subnet with a prefix of ${BigInt(cidr.prefix) + bits} bits after ${toStr(out[out.length - 1] ?? '')}`,
      );
    }
    out.push(allocate(cidr, bits, nums[i], `${fn}()`));
  });
  return out;
}

/** The address numbered `host_num` in the block; negative numbers count back from its end. */
function cidrHost(call: CallArgs): Value {
  const fn = 'CIDR_host';
  const cidr = cidrArg(call, 0, fn);
  const hostNum = expectInt(requiredArg(call, 1, 'host_num'), fn, 'host_num');
  const hostLen = BigInt(width(cidr.ip) - cidr.prefix);
  const magnitude = hostNum < 0n ? -(hostNum + 1n) : hostNum;
  if (magnitude >= 1n << hostLen) {
    evalError(`${fn}() prefix of ${cidr.prefix} does not accommodate a host numbered ${hostNum}`);
  }
  const offset = hostNum < 0n ? (1n << hostLen) + hostNum : hostNum;
  return ipText({ v6: cidr.ip.v6, bits: cidr.ip.bits + offset });
}

function cidrNetmask(call: CallArgs): Value {
  const cidr = cidrArg(call, 0, 'CIDR_netmask');
  if (cidr.ip.v6) evalError('CIDR_netmask() IPv6 addresses cannot have a netmask');
  const mask = ((1n << 32n) - 1n) ^ ((1n << BigInt(32 - cidr.prefix)) - 1n);
  return ipText({ v6: false, bits: mask });
}

const ip = (name: string): Signature => sig(name, ['ip'], 1);

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [
  [sig('split_host_port', ['ip_end_point'], 1), splitHostPort],
  [sig('join_host_port', ['host', 'port'], 2), joinHostPort],
  [sig('fqdn', ['name'], 0), fqdn],
  [ip('parse_IP'), ipString('parse_IP')],
  [ip('IP_string'), ipString('IP_string')],
  [ip('to_IP4'), toIP4],
  [ip('to_IP6'), toIP6('to_IP6')],
  // kcl's documentation calls it to_IP16
  [ip('to_IP16'), toIP6('to_IP16')],
  [ip('is_IPv4'), (call) => parseIpv4(ipArg(call, 'is_IPv4')) !== undefined],
  [ip('is_IPv6'), (call) => parseIpv6(ipArg(call, 'is_IPv6')) !== undefined],
  [ip('is_IP'), ipTest('is_IP', () => true)],
  [ip('is_loopback_IP'), ipTest('is_loopback_IP', isLoopback)],
  [ip('is_multicast_IP'), ipTest('is_multicast_IP', isMulticast)],
  [ip('is_interface_local_multicast_IP'), ipTest('is_interface_local_multicast_IP', (a) => isIpv6MulticastScope(a, 1))],
  [
    ip('is_link_local_multicast_IP'),
    ipTest('is_link_local_multicast_IP', (a) =>
      a.v6 ? isIpv6MulticastScope(a, 2) : octets(a)[0] === 224 && octets(a)[1] === 0 && octets(a)[2] === 0,
    ),
  ],
  [
    ip('is_link_local_unicast_IP'),
    ipTest(
      'is_link_local_unicast_IP',
      (a) => !isMulticast(a) && (a.v6 ? isIpv6UnicastLinkLocal(a) : isIpv4LinkLocal(a)),
    ),
  ],
  [
    ip('is_global_unicast_IP'),
    ipTest('is_global_unicast_IP', (a) => (a.v6 ? isIpv6GlobalUnicast(a) : isIpv4Global(a) && !isMulticast(a))),
  ],
  [ip('is_unspecified_IP'), ipTest('is_unspecified_IP', isUnspecified)],
  [sig('parse_CIDR', ['cidr'], 1), parseCIDR],
  [sig('is_IP_in_CIDR', ['ip', 'cidr'], 2), isIPInCIDR],
  [sig('CIDR_subnet', ['cidr', 'additional_bits', 'net_num'], 3), cidrSubnet],
  [sig('CIDR_subnets', ['cidr', 'additional_bits'], 2), cidrSubnets],
  [sig('CIDR_host', ['cidr', 'host_num'], 2), cidrHost],
  [sig('CIDR_netmask', ['cidr'], 1), cidrNetmask],
];

export function netModule(): ModuleValue {
  return makeModule('net', DEFINITIONS);
}
