// Instances of the standalone server sharing one PostgreSQL database, one Redis
// rate-limit store and one S3-compatible bucket (s3rver in this process): the
// scale-out configuration of the README's "Deploying", on one machine.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import S3rver from "s3rver";
import { copyStandalone, freePort, startStandalone, waitHealthy, type Server } from "./standalone-server";

export type Cluster = { servers: Server[]; db: postgres.Sql; dbUrl: string; stop: () => Promise<void> };

export async function startCluster(opts: { instances: number; operatorToken: string; env?: Record<string, string> }): Promise<Cluster> {
  const pgAdmin = process.env.MULTI_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const dbName = `multi_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = postgres(pgAdmin, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const dbUrl = Object.assign(new URL(pgAdmin), { pathname: `/${dbName}` }).toString();
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "multi-s3-"));
  const s3 = new S3rver({ address: "127.0.0.1", port: await freePort(), silent: true, directory: s3Dir, configureBuckets: [{ name: "multi" }] });
  const s3Address = await s3.run();
  const appDir = copyStandalone();
  const db = postgres(dbUrl, { max: 1, onnotice: () => {} });
  const shared = {
    DATABASE_URL: dbUrl,
    RATE_LIMIT_STORE: "redis",
    REDIS_URL: process.env.MULTI_REDIS_URL ?? "redis://127.0.0.1:6379",
    S3_BUCKET: "multi",
    S3_ENDPOINT: `http://127.0.0.1:${s3Address.port}`,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    AUTH_SECRET: "multi-instance-secret-0123456789-abcdefghij",
    OPERATOR_TOKEN: opts.operatorToken,
    DEMO_ACCOUNT: "never",
    // Sign-ups are counted per IP per hour in the shared Redis, across runs: every run
    // registers from 127.0.0.1, so the default 20 an hour would refuse later runs.
    REGISTER_PER_HOUR: "100000",
    ...opts.env,
  };
  const servers: Server[] = [];
  const stop = async () => {
    for (const s of servers) await s.kill();
    await db.end();
    await s3.close();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    fs.rmSync(path.dirname(appDir), { recursive: true, force: true });
    fs.rmSync(s3Dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < opts.instances; i++) {
      servers.push(await startStandalone(appDir, { ...shared, DATA_DIR: path.join(path.dirname(appDir), `data-${i}`) }));
    }
    await Promise.all(servers.map((s) => waitHealthy(s)));
  } catch (err) {
    await stop();
    throw err;
  }
  return { servers, db, dbUrl, stop };
}
