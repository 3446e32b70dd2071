// A Redis address as users give it: redis://[user:password@]host:port[/db], or rediss:// for TLS. Checked here
// (scheme, host, port, database) so a typo is a message naming it, and printed without its password.
import { redactCredentials } from '../../foundation/redact.ts';
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The address without credentials, for messages. */
  shown: string;
}

export function parseRedisUrl(raw: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      `--queue ${JSON.stringify(redactCredentials(raw.slice(0, 200)))} is not a URL (a port from 1 to 65535, a password with characters such as / or @ percent-encoded): give redis://host:port or rediss://:password@host:port`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new Error(`--queue must be a redis:// or rediss:// URL; got ${url.protocol}`);
  if (!url.hostname) throw new Error('--queue names no host: give redis://host:port');
  const port = url.port ? Number(url.port) : 6379;
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || db > 15)
    throw new Error(`--queue database "${dbText}" is not a number from 0 to 15`);
  const tls = url.protocol === 'rediss:';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    tls,
    shown: `${url.protocol}//${url.host}${db ? `/${db}` : ''}`,
  };
}

/** ioredis options for the target; BullMQ's blocking connections need maxRetriesPerRequest: null. */
export function connectionOptions(t: RedisTarget) {
  return {
    host: t.host,
    port: t.port,
    db: t.db,
    ...(t.username ? { username: t.username } : {}),
    ...(t.password ? { password: t.password } : {}),
    ...(t.tls ? { tls: { servername: t.host } } : {}),
    maxRetriesPerRequest: null,
    connectTimeout: 5000,
  };
}
