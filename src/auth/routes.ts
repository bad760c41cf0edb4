import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { ApiError } from '../http/problem.js';
import { bearerToken, requireReader } from './authenticate.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password.js';
import {
  claimAttempt,
  clearFailures,
  createSession,
  deleteSession,
  findUserForLogin,
  unclaimAttempt,
} from './queries.js';
import { MAX_USERNAME, retryAfterSeconds, userFailureKey } from './throttle.js';

const LoginBody = Type.Object({
  username: Type.String({ minLength: 1 }),
  password: Type.String({ minLength: 1 }),
});

// No account has a longer name (MAX_USERNAME) or password; a longer one is a wrong one (401), not a malformed request.
const MAX_PASSWORD = 1024;

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

  app.post(
    '/login',
    {
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
      const userKey = userFailureKey(username);
      const addressKey = `addr:${request.ip}`;
      const now = Date.now();
      const counters = await claimAttempt(db, [userKey, addressKey], login.windowSeconds, now);
      const waitFor = (key: string, max: number) => {
        const counter = counters.get(key);
        return counter ? retryAfterSeconds(counter, max, counter.windowSeconds, now) : 0;
      };
      const wait = Math.max(
        waitFor(userKey, login.maxFailuresPerUser),
        waitFor(addressKey, login.maxFailuresPerAddress),
      );
      if (wait > 0) {
        // Refused untried, so not a failure: counted, a client that keeps asking would push its own Retry-After back.
        await unclaimAttempt(db, [userKey, addressKey]);
        throw new ApiError(
          429,
          'too_many_requests',
          'Too many failed logins; try again later',
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
        await clearFailures(db, userKey);
        await unclaimAttempt(db, [addressKey]);
      } catch (err) {
        // Only a wrong password is a failure. A failure on this side (the database gone mid-login) is not the user's:
        // the attempt is uncounted and a session already made is taken back (best effort: the database may be gone).
        if (!(err instanceof ApiError && err.status === 401)) {
          if (session) await deleteSession(db, session.token).catch(() => {});
          await unclaimAttempt(db, [userKey, addressKey]).catch(() => {});
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
