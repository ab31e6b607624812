// The official OpenSandbox SDK (@alibaba-group/opensandbox, pinned in package.json) against the
// emulator at OPEN_SANDBOX_DOMAIN with OPEN_SANDBOX_API_KEY, as internal/conformance runs it.
// Where this fails, the emulator is wrong, not the SDK.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { ConnectionConfig, DefaultAdapterFactory, Sandbox, SandboxManager } from "@alibaba-group/opensandbox";

const domain = process.env.OPEN_SANDBOX_DOMAIN;
assert.ok(domain, "OPEN_SANDBOX_DOMAIN is not set");
const connectionConfig = new ConnectionConfig({ requestTimeoutSeconds: 10 }); // domain and key from the environment
const manager = SandboxManager.create({ connectionConfig });
after(() => manager.close());

const CODE_INTERPRETER = "opensandbox/code-interpreter:v1.1.0";
const CI_ENTRYPOINT = ["/opt/code-interpreter/code-interpreter.sh"];

// The emulator's own controls (no key), see opensandboxemu/control.go.
async function control(method, path, body) {
  const res = await fetch(`http://${domain}/_emulator/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} /_emulator/${path}: ${res.status} ${text}`);
  return text === "" ? undefined : JSON.parse(text);
}

async function readySnapshot(sandboxId, name) {
  const created = await manager.createSnapshot(sandboxId, { name });
  assert.equal(created.name, name);
  let snap = created;
  for (let i = 0; snap.status.state === "Creating" && i < 50; i++) {
    snap = await manager.getSnapshot(created.id);
  }
  assert.equal(snap.status.state, "Ready");
  return snap;
}

test("Sandbox.create from an image, then a streamed command and a failing one", async () => {
  const sandbox = await Sandbox.create({ connectionConfig, image: CODE_INTERPRETER, entrypoint: CI_ENTRYPOINT });
  try {
    const info = await sandbox.getInfo();
    assert.equal(info.status.state, "Running");
    assert.deepEqual(info.entrypoint, CI_ENTRYPOINT);

    const streamed = [];
    const ok = await sandbox.commands.run("echo hello from execd", undefined, {
      onStdout: (m) => streamed.push(m.text),
    });
    assert.deepEqual(streamed, ["hello from execd"]);
    assert.equal(ok.exitCode, 0);
    assert.equal(ok.logs.stdout[0]?.text, "hello from execd");

    const failed = await sandbox.commands.run("exit 3");
    assert.equal(failed.exitCode, 3);
    assert.ok(failed.error, "a non-zero exit is reported as an execution error");
  } finally {
    await sandbox.kill();
    await sandbox.close();
  }
  await assert.rejects(manager.getSandboxInfo(sandbox.id), (err) => err.statusCode === 404);
});

test("an entrypoint the image cannot run ends the sandbox, with the reason in its status", async () => {
  const sandbox = await Sandbox.create({
    connectionConfig, image: "python:3.12-slim", entrypoint: CI_ENTRYPOINT, skipHealthCheck: true,
  });
  try {
    const info = await sandbox.getInfo();
    assert.equal(info.status.state, "Failed");
    assert.match(info.status.message, /exited with code 127/);
  } finally {
    await sandbox.kill();
    await sandbox.close();
  }
});

test("snapshot create, get, list by name, restore, delete", async () => {
  const name = `conformance-${process.pid}`;
  const source = await Sandbox.create({ connectionConfig, image: CODE_INTERPRETER, entrypoint: CI_ENTRYPOINT });
  let snap;
  try {
    snap = await readySnapshot(source.id, name);
  } finally {
    await source.kill();
    await source.close();
  }
  const got = await manager.getSnapshot(snap.id);
  assert.equal(got.sandboxId, source.id);
  assert.ok(got.createdAt instanceof Date);

  await control("POST", "snapshots", { name: `${name}-other` });
  const listed = await manager.listSnapshots({ name });
  assert.deepEqual(listed.items.map((s) => s.id), [snap.id]);

  // A snapshot keeps no process: restored without an entrypoint, the sandbox runs tail.
  const plain = await Sandbox.create({ connectionConfig, snapshotId: snap.id });
  const withCI = await Sandbox.create({ connectionConfig, snapshotId: snap.id, entrypoint: CI_ENTRYPOINT });
  try {
    const plainInfo = await manager.getSandboxInfo(plain.id);
    assert.equal(plainInfo.snapshotId, snap.id);
    assert.equal(plainInfo.status.state, "Running");
    assert.deepEqual(plainInfo.entrypoint, ["tail", "-f", "/dev/null"]); // the SDK's default, sent as such
    const ciInfo = await manager.getSandboxInfo(withCI.id);
    assert.equal(ciInfo.status.state, "Running");
    assert.deepEqual(ciInfo.entrypoint, CI_ENTRYPOINT);
    const ran = await withCI.commands.run("echo restored");
    assert.equal(ran.logs.stdout[0]?.text, "restored");
  } finally {
    for (const sb of [plain, withCI]) {
      await sb.kill();
      await sb.close();
    }
  }

  await manager.deleteSnapshot(snap.id);
  await assert.rejects(manager.getSnapshot(snap.id), (err) => err.statusCode === 404 && err.error.code === "SNAPSHOT::NOT_FOUND");
});

test("a command finds what the image holds: python3 on ubuntu is bash's exit 127", async () => {
  const sandbox = await Sandbox.create({ connectionConfig, image: "ubuntu:24.04", entrypoint: ["tail", "-f", "/dev/null"] });
  try {
    const ran = await sandbox.commands.run("python3 -m pip install requests");
    assert.equal(ran.exitCode, 127);
    assert.ok(ran.error, "a non-zero exit is reported as an execution error");
    assert.equal(ran.logs.stderr[0]?.text, "bash: line 1: python3: command not found");
  } finally {
    await sandbox.kill();
    await sandbox.close();
  }
});

test("commands run through bash in the image: lists, sh -c, envs; node:20 has node; apt on Alpine is 127", async () => {
  const run = async (image, cases) => {
    const sandbox = await Sandbox.create({ connectionConfig, image, entrypoint: ["tail", "-f", "/dev/null"] });
    try {
      for (const [command, opts, exitCode, stdout] of cases) {
        const ran = await sandbox.commands.run(command, opts);
        assert.equal(ran.exitCode ?? 0, exitCode, `${command} on ${image}: ${JSON.stringify(ran.logs)}`);
        if (stdout !== undefined) {
          assert.deepEqual(ran.logs.stdout.map((l) => l.text), stdout, command);
        }
      }
    } finally {
      await sandbox.kill();
      await sandbox.close();
    }
  };
  await run("ubuntu:24.04", [
    ["cd /opt; python3 -V", undefined, 127],
    ["false || true", undefined, 0],
    ["false; echo after", undefined, 0, ["after"]],
    ["sh -c 'exit 4'", undefined, 4],
    ["echo $A", { envs: { A: "1" } }, 0, ["1"]],
  ]);
  await run("node:20", [["node --version", undefined, 0, ["v20.19.5"]]]);
  await run("python:3.12-alpine", [["apt-get update && apt-get install -y curl", undefined, 127]]);
});

test("what the builder's steps use: folders, uploads, a cwd, a user and envs, recorded in order", async () => {
  const sandbox = await Sandbox.create({ connectionConfig, image: CODE_INTERPRETER, entrypoint: CI_ENTRYPOINT });
  try {
    // execd refuses a working directory that does not exist (RunCommandRequest.Validate).
    await assert.rejects(sandbox.commands.run("true", { workingDirectory: "/srv/app" }), (err) => err.statusCode === 400);
    await sandbox.files.createDirectories([{ path: "/srv/app", mode: 755, owner: "root", group: "root" }]);
    await sandbox.files.writeFiles([{ path: "/srv/app/conf/settings.json", data: '{"theme":"dark"}', mode: 640 }]);
    const inApp = await sandbox.commands.run("echo in app", { workingDirectory: "/srv/app/conf", envs: { MPLBACKEND: "Agg" } });
    assert.equal(inApp.exitCode, 0);
    assert.equal(inApp.logs.stdout[0]?.text, "in app");

    // Users: useradd, then getent reads the entry a command can run as (uid).
    assert.equal((await sandbox.commands.run("getent passwd analyst")).exitCode, 2);
    assert.equal((await sandbox.commands.run("useradd --create-home --shell /bin/bash analyst")).exitCode, 0);
    const entry = await sandbox.commands.run("getent passwd analyst");
    const [, , uid, gid, , home] = entry.logs.stdout[0].text.split(":");
    assert.equal(home, "/home/analyst");
    const asUser = await sandbox.commands.run("echo hi", { uid: Number(uid), gid: Number(gid), workingDirectory: home });
    assert.equal(asUser.exitCode, 0);
    // An owner execd cannot look up fails the upload.
    await assert.rejects(sandbox.files.writeFiles([{ path: "/srv/app/x", data: "x", owner: "nobody-here" }]), (err) => err.statusCode === 500);

    const recorded = (await control("GET", "sandboxes")).find((sb) => sb.id === sandbox.id);
    assert.deepEqual(recorded.calls.map((c) => c.command ?? (c.mkdir && `mkdir ${c.mkdir}`) ?? `upload ${c.upload}`), [
      "mkdir /srv/app", "upload /srv/app/conf/settings.json", "echo in app", "getent passwd analyst",
      "useradd --create-home --shell /bin/bash analyst", "getent passwd analyst", "echo hi", "upload /srv/app/x",
    ]);
    assert.deepEqual([recorded.calls[2].cwd, recorded.calls[2].envs], ["/srv/app/conf", { MPLBACKEND: "Agg" }]);
    assert.deepEqual([recorded.calls[6].uid, recorded.calls[6].cwd], [Number(uid), "/home/analyst"]);
    assert.deepEqual([recorded.calls[1].mode, recorded.calls[1].size], [640, 16]);
  } finally {
    await sandbox.kill();
    await sandbox.close();
  }
});

test("deleting a snapshot a restored sandbox uses: 409 SNAPSHOT::DELETE_CONFLICT, left Deleting", async () => {
  const source = await Sandbox.create({ connectionConfig, image: CODE_INTERPRETER, entrypoint: CI_ENTRYPOINT });
  let snap;
  try {
    snap = await readySnapshot(source.id, `in-use-${process.pid}`);
  } finally {
    await source.kill();
    await source.close();
  }
  const restored = await Sandbox.create({ connectionConfig, snapshotId: snap.id });
  try {
    await assert.rejects(manager.deleteSnapshot(snap.id),
      (err) => err.statusCode === 409 && err.error.code === "SNAPSHOT::DELETE_CONFLICT");
    assert.equal((await manager.getSnapshot(snap.id)).status.state, "Deleting");
  } finally {
    await restored.kill();
    await restored.close();
  }
  await manager.deleteSnapshot(snap.id);
  await assert.rejects(manager.getSnapshot(snap.id), (err) => err.statusCode === 404);
});

test("create answers expiresAt; pause, resume, renew, the metadata patch and a list by metadata", async () => {
  let created; // the create answer, as the SDK's own lifecycle adapter parsed it
  class Recording extends DefaultAdapterFactory {
    createLifecycleStack(opts) {
      const stack = super.createLifecycleStack(opts);
      const create = stack.sandboxes.createSandbox.bind(stack.sandboxes);
      stack.sandboxes.createSandbox = async (req) => (created = await create(req));
      return stack;
    }
  }
  const suite = `conf-${process.pid}`;
  const sandbox = await Sandbox.create({ connectionConfig, adapterFactory: new Recording(), image: CODE_INTERPRETER,
    entrypoint: CI_ENTRYPOINT, timeoutSeconds: 600, metadata: { suite, keep: "x" } });
  try {
    assert.ok(created.expiresAt instanceof Date, `expiresAt is ${created.expiresAt}`);
    assert.equal(created.expiresAt.getTime() - created.createdAt.getTime(), 600_000);

    await manager.pauseSandbox(sandbox.id);
    assert.equal((await manager.getSandboxInfo(sandbox.id)).status.state, "Paused");
    await assert.rejects(manager.pauseSandbox(sandbox.id), (err) => err.statusCode === 409 && err.error.code === "DOCKER::SANDBOX_NOT_RUNNING");
    await manager.resumeSandbox(sandbox.id);
    assert.equal((await manager.getSandboxInfo(sandbox.id)).status.state, "Running");

    await manager.renewSandbox(sandbox.id, 3600);
    assert.ok((await manager.getSandboxInfo(sandbox.id)).expiresAt > created.expiresAt);

    const patched = await manager.patchSandboxMetadata(sandbox.id, { keep: null, stage: "b" });
    assert.deepEqual(patched.metadata, { suite, stage: "b" });
    const listed = await manager.listSandboxInfos({ metadata: { suite, stage: "b" } });
    assert.deepEqual(listed.items.map((sb) => sb.id), [sandbox.id]);
  } finally {
    await sandbox.kill();
    await sandbox.close();
  }
  for (const op of [(m) => m.pauseSandbox("nope"), (m) => m.resumeSandbox("nope"), (m) => m.renewSandbox("nope", 600),
    (m) => m.patchSandboxMetadata("nope", { a: "b" })]) {
    await assert.rejects(op(manager), (err) => err.statusCode === 404 && err.error.code === "DOCKER::SANDBOX_NOT_FOUND");
  }
});

test("an old server ignores ?name=", async () => {
  const name = `old-server-${process.pid}`;
  await control("POST", "snapshots", { name });
  await control("POST", "snapshots", { name: `${name}-other` });
  await control("PUT", "settings", { ignoreSnapshotNameFilter: true });
  try {
    const listed = await manager.listSnapshots({ name, pageSize: 200 });
    assert.ok(listed.items.some((s) => s.name === `${name}-other`), "every snapshot is listed");
  } finally {
    await control("PUT", "settings", { ignoreSnapshotNameFilter: false });
  }
});

test("a timeout above the server's cap is a 400 the SDK reports", async () => {
  await control("PUT", "settings", { maxSandboxTimeoutSeconds: 600 });
  try {
    await assert.rejects(
      Sandbox.create({ connectionConfig, image: CODE_INTERPRETER, entrypoint: CI_ENTRYPOINT, timeoutSeconds: 601 }),
      (err) => err.statusCode === 400 && err.error.code === "SANDBOX::INVALID_PARAMETER",
    );
  } finally {
    await control("PUT", "settings", { maxSandboxTimeoutSeconds: 0 });
  }
});

test("a 5xx answers the SDK with the server's error shape", async () => {
  await control("POST", "faults", { method: "GET", pathPrefix: "/snapshots", status: 503, count: 1 });
  await assert.rejects(manager.listSnapshots({}), (err) => err.statusCode === 503 && err.error.code === "GENERAL::UNKNOWN_ERROR");
  await manager.listSnapshots({}); // consumed
});

test("a check's sandbox: restored with env, metadata and a timeout, its commands see the env as the template's user, found by metadata, gone once killed", async () => {
  const name = `check-${process.pid}`;
  const source = await Sandbox.create({ connectionConfig, image: CODE_INTERPRETER, entrypoint: ["tail", "-f", "/dev/null"] });
  let snap;
  try {
    assert.equal((await source.commands.run("useradd --create-home --shell /bin/bash analyst")).exitCode, 0);
    assert.equal((await source.commands.run("mkdir -p /home/analyst/work")).exitCode, 0);
    snap = await readySnapshot(source.id, name);
  } finally {
    await source.kill();
    await source.close();
  }
  const labels = { "sandboxtf-role": "template-check", "sandboxtf-template": name };
  const check = await Sandbox.create({ connectionConfig, snapshotId: snap.id, entrypoint: ["sh", "-c", "sleep infinity"],
    env: { MPLBACKEND: "Agg" }, metadata: labels, timeoutSeconds: 120 });
  try {
    const info = await manager.getSandboxInfo(check.id);
    assert.equal(info.status.state, "Running");
    assert.deepEqual(info.metadata, labels);
    const entry = (await check.commands.run("getent passwd analyst")).logs.stdout[0]?.text ?? "";
    const [, , uid, gid, , home] = entry.split(":");
    const ran = await check.commands.run("echo $MPLBACKEND $HOME; pwd; whoami", {
      uid: Number(uid), gid: Number(gid), workingDirectory: `${home}/work`, envs: { HOME: home } });
    assert.equal(ran.exitCode ?? 0, 0);
    assert.deepEqual(ran.logs.stdout.map((l) => l.text), ["Agg /home/analyst", "/home/analyst/work", "analyst"]);
    const found = await manager.listSandboxInfos({ metadata: labels });
    assert.deepEqual(found.items.map((s) => s.id), [check.id]);
  } finally {
    await check.kill();
    await check.close();
  }
  const after = await manager.listSandboxInfos({ metadata: labels });
  assert.deepEqual(after.items.map((s) => s.id), []);
  await manager.deleteSnapshot(snap.id);
});
