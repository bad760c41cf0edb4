// Which X-Forwarded-For entries name the client: TRUST_PROXY, turned into what Fastify's `trustProxy` runs.
// The client address is the right-most entry that no trusted proxy wrote (proxy-addr's walk from the socket's address
// leftwards): the left-most one is whatever the client sent, so trusting every hop lets anyone choose its address.
import type { TrustProxy } from '../config.js';

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * Fastify's option for a TRUST_PROXY setting. A hop count becomes a function: Fastify takes a number but, since it
 * cannot tell a proxy from a client by position alone, trusts nothing for one. Here the hops are trusted as
 * configured (1: the socket's peer, the one proxy in front), which is right when the server is reachable only
 * through those proxies; addresses or CIDR ranges check the peer too.
 */
export function trustProxyOption(setting: TrustProxy): boolean | string[] | TrustFunction {
  if (typeof setting === 'number') {
    const hops = setting;
    return (_address, hop) => hop < hops;
  }
  return setting;
}
