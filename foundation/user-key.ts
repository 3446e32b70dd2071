// A secret of this user's on this machine, made once: keyed digests (HMAC) of it mark the run folders this user's
// automemo wrote (run-store/run-trust.ts), and make a search's job ids on a shared queue ones nobody else can derive
// (engine/jobs/redis-queue.ts). Kept in AUTOMEMO_CONFIG_DIR (default $XDG_CONFIG_HOME/automemo, else
// ~/.config/automemo), readable by this user only.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSmallFile } from './small-file.ts';

const KEY_FILE = 'user-key';
const KEY = /^[0-9a-f]{64}$/;

export function configDir(): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return process.env.AUTOMEMO_CONFIG_DIR || join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.config'), 'automemo');
}

let cached: { path: string; key: Buffer } | undefined;

/** This user's key, made on first use; an error naming the file when it cannot be read or made. */
export function userKey(): Buffer {
  const path = join(configDir(), KEY_FILE);
  if (cached?.path === path) return cached.key;
  let text = read(path);
  if (text === undefined) {
    try {
      mkdirSync(configDir(), { recursive: true, mode: 0o700 });
      writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (err) {
      // Another process made it first: that one is the key.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new Error(`cannot make automemo's user key ${path} (${(err as Error).message}); set AUTOMEMO_CONFIG_DIR to a folder of yours`, { cause: err });
      }
    }
    text = read(path);
  }
  if (text === undefined || !KEY.test(text.trim())) throw new Error(`automemo's user key ${path} is not one (64 hex digits); delete it to make a new one`);
  cached = { path, key: Buffer.from(text.trim(), 'hex') };
  return cached.key;
}

function read(path: string): string | undefined {
  try {
    return readSmallFile(path, 1024);
  } catch (err) {
    throw new Error(`cannot read automemo's user key: ${(err as Error).message}`, { cause: err });
  }
}

/** A keyed digest (hex) of `data` for `purpose`: the same for this user on this machine, underivable for anyone else. */
export function userMac(purpose: string, data: string | Buffer): string {
  return createHmac('sha256', userKey()).update(purpose).update('\u0000').update(data).digest('hex');
}
