import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { ApiError } from '../http/problem.js';
import { bearerToken, requireReader } from './authenticate.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password.js';
import {
  claimAttempt,
  type ClaimedCounter,
  clearFailures,
  createSession,
  deleteSession,
  findUserForLogin,
  lockKey,
  unclaimAttempt,
} from './queries.js';
import {
  MAX_USERNAME,
  addressKey,
  lockDurationMs,
  recentFailures,
  retryAfterSeconds,
  userAddressKey,
  userFailureKey,
} from './throttle.js';
import { loginFailures, loginThrottled, usernamesOverLimit } from '../http/metrics.js';

const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1 }),
    password: Type.String({ minLength: 1 }),
  },
  // The demo's password is made at its first start and printed then (and kept in demo-credentials.json).
  { examples: [{ username: 'demo', password: 'the password `sightline demo` printed' }] },
);

// No account has a longer name (MAX_USERNAME) or password; a longer one is a wrong one (401), not a malformed request.
const MAX_PASSWORD = 1024;

// The longest login any account can make, written wholly in \uXXXX escapes (6 bytes a character), with room to spare;
// an unauthenticated client gets no more bytes parsed than that.
const LOGIN_BODY_LIMIT = 16 * 1024;

const LoginResponse = Type.Object({
  data: Type.Object({
    token: Type.String(),
    tokenType: Type.Literal('Bearer'),
    expiresAt: Type.String({ format: 'date-time' }),
    user: Type.Object({
      id: Type.String(),
      username: Type.String(),
      role: Type.String(),
      organisation: Type.Object({ id: Type.String(), name: Type.String() }),
    }),
  }),
});

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { login } = app.config;

  /**
   * A wrong password: a key that this failure brought to its limit is locked (each lock twice as long as the one
   * before), and the username's failures from every address are counted, for an alert when they pass the per-user
   * limit (a log line and a metric; nobody is refused on them).
   */
  async function recordFailure(
    request: FastifyRequest,
    userId: string | undefined,
    username: string,
    counters: Map<string, ClaimedCounter>,
    limits: Map<string, number>,
    now: number,
  ): Promise<void> {
    const db = app.store.db;
    loginFailures.inc();
    for (const [key, max] of limits) {
      const counter = counters.get(key);
      if (!counter) continue;
      const windowMs = counter.windowSeconds * 1000;
      // The claim's failures did not include this attempt; it failed, so it counts now.
      if (recentFailures({ ...counter, failures: counter.failures + 1 }, windowMs, now) < max) continue;
      if (counter.lockedUntil > now) continue;
      await lockKey(db, key, now + lockDurationMs(counter.lockouts + 1, windowMs));
    }
    const everywhere = (await claimAttempt(db, [userFailureKey(username)], login.windowSeconds, now)).values().next()
      .value as ClaimedCounter;
    const windowMs = everywhere.windowSeconds * 1000;
    const before = recentFailures(everywhere, windowMs, now);
    const after = recentFailures({ ...everywhere, failures: everywhere.failures + 1 }, windowMs, now);
    if (before < login.maxFailuresPerUser && after >= login.maxFailuresPerUser) {
      usernamesOverLimit.inc();
      // The user's id when there is such a user; never the username (it may be a password typed in the wrong field).
      request.log.warn(
        { event: 'login_failures', userId: userId ?? null, failures: Math.round(after), address: request.ip },
        'many failed logins for one username, from all addresses together',
      );
    }
  }

  app.post(
    '/login',
    {
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags: ['auth'],
        summary: 'Exchange a username and password for a session token',
        security: [],
        body: LoginBody,
        response: { 200: LoginResponse },
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('A new session token, valid until expiresAt', LoginResponse) },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body as { username: string; password: string };
      const db = app.store.db;
      const tooLong = username.length > MAX_USERNAME || password.length > MAX_PASSWORD;
      const address = request.ip;
      const pairKey = userAddressKey(username, address);
      const addrKey = addressKey(address);
      const limits = new Map([
        [pairKey, login.maxFailuresPerUser],
        [addrKey, login.maxFailuresPerAddress],
      ]);
      const keys = [...limits.keys()];
      const now = Date.now();
      const counters = await claimAttempt(db, keys, login.windowSeconds, now);
      const waitFor = (key: string) => {
        const counter = counters.get(key);
        return counter ? retryAfterSeconds(counter, limits.get(key)!, counter.windowSeconds, now) : 0;
      };
      const pairWait = waitFor(pairKey);
      const addrWait = waitFor(addrKey);
      const wait = Math.max(pairWait, addrWait);
      if (wait > 0) {
        // Refused untried, so not a failure: counted, a client that keeps asking would push its own Retry-After back.
        await unclaimAttempt(db, keys);
        loginThrottled.inc({ scope: pairWait >= addrWait ? 'username_address' : 'address' });
        throw new ApiError(
          429,
          'too_many_requests',
          'Too many failed logins from this address; try again later',
          { retryAfter: wait },
          { 'Retry-After': String(wait) },
        );
      }
      let session: Awaited<ReturnType<typeof createSession>> | undefined;
      let user: Awaited<ReturnType<typeof findUserForLogin>>;
      try {
        user = tooLong ? undefined : await findUserForLogin(db, username);
        const ok = await verifyPassword(password.slice(0, MAX_PASSWORD), user?.password_hash ?? DUMMY_PASSWORD_HASH);
        if (!user || !ok) throw new ApiError(401, 'invalid_credentials', 'Wrong username or password');
        session = await createSession(db, user.id, user.org_id, app.config.sessionTtlSeconds);
        await clearFailures(db, pairKey);
        await unclaimAttempt(db, [addrKey]);
      } catch (err) {
        // Only a wrong password is a failure. A failure on this side (the database gone mid-login) is not the user's:
        // the attempt is uncounted and a session already made is taken back (best effort: the database may be gone).
        if (!(err instanceof ApiError && err.status === 401)) {
          if (session) await deleteSession(db, session.token).catch(() => {});
          await unclaimAttempt(db, keys).catch(() => {});
        } else {
          await recordFailure(request, user?.id, username, counters, limits, now);
        }
        throw err;
      }
      reply.header('Cache-Control', 'no-store');
      return {
        data: {
          token: session.token,
          tokenType: 'Bearer' as const,
          expiresAt: new Date(session.expiresAt).toISOString(),
          user: {
            id: user.id,
            username: user.username,
            role: user.role,
            organisation: { id: user.org_id, name: user.org_name },
          },
        },
      };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the current session',
        security: [{ bearer: [] }],
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse(
            'The session token no longer works',
            Type.Object({ data: Type.Object({ loggedOut: Type.Literal(true) }) }),
          ),
        },
      },
      onRequest: requireReader,
    },
    async (request) => {
      const token = bearerToken(request);
      // An access token is no session: answering "logged out" while it keeps working would mislead.
      if (request.principal?.kind !== 'session') {
        throw new ApiError(
          400,
          'invalid_request',
          'An access token is not a session: revoke it (sightline admin token revoke) instead',
        );
      }
      if (token) await deleteSession(app.store.db, token);
      return { data: { loggedOut: true } };
    },
  );
}
